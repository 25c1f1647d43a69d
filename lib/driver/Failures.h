// What `run` and `generate` share about failing tests and the dynamic pool:
// the key that tells failures apart, their confirmation and minimisation in
// fresh processes, and harvesting comparison operands from a trace.
#pragma once

#include "RunReport.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/model/Program.h"
#include "mosaic/testcase/ConstantPool.h"
#include "mosaic/testcase/TestCase.h"

#include <map>
#include <string>

namespace mosaic::driver {

/// What identifies a failure: its outcome (and signal) and the callable it
/// happened in.
std::string crashKey(const exec::RunResult &r, const std::string &where);
/// The callable performed at `statement`, for reports.
std::string whereOf(const model::Program &p, const testcase::TestCase &t, int statement);
/// Crash, abort, timeout, exit, sanitizer report or out of memory.
bool isFailure(exec::Outcome o);

/// Counts a failing run under its key, keeping the shortest test per key
/// (with its result and output).
void recordFailure(std::map<std::string, Crash> &crashes, const model::Program &p, const testcase::TestCase &t,
                   const exec::RunResult &r, const exec::Trace &trace);

/// Feeds what the unit compared its inputs with into the dynamic pool.
/// Operands equal to a value `test` supplied are left out (the input side).
void harvest(const exec::Trace &trace, testcase::ConstantPool &pool, const testcase::TestCase *test = nullptr);

/// Confirms a failure in a fresh process of its own (a persistent child may
/// carry state from earlier tests), then removes statements from the end
/// backwards while the failure stays the same. `runs` counts executions.
void minimiseFailure(const model::Program &p, exec::ForkServer &server, exec::Limits limits, Crash &crash, int &runs);

} // namespace mosaic::driver
