// Failing runs: what tells two failures apart, and the observer that
// records them as the search meets them (`run`, `generate`, and the runs of
// later stages alike).
#pragma once

#include "mosaic/search/Search.h"
#include "mosaic/stages/Stage.h"

#include <map>
#include <string>

namespace mosaic::stages {

/// Crash, abort, timeout, exit, sanitizer report or out of memory.
bool isFailure(exec::Outcome o);
/// The callable performed at `statement`, for reports.
std::string whereOf(const model::Program &p, const testcase::TestCase &t, int statement);
/// What identifies a failure: its outcome (and signal) and the callable it
/// happened in.
std::string failureKey(const exec::RunResult &r, const std::string &where);

/// Counts each failing run under its key, keeping the shortest test per key
/// (with its result and output). Given the catalog, the key also holds the
/// class of the claim the test would make (Classify.h): the shortest way to
/// a crash is often the least trusted one (cJSON_SetValuestring(NULL, s)
/// beside the same call on a number the API made), and must not hide the
/// others; ClassifyFailures keeps the most trusted per crash site.
class FailureRecorder final : public search::EvaluationObserver {
public:
  FailureRecorder(const model::Program &program, std::map<std::string, Failure> &failures,
                  const testcase::Catalog *catalog = nullptr)
      : p_(program), failures_(failures), catalog_(catalog) {}
  void evaluated(const search::Evaluator &, const search::Evaluation &evaluation) override;
  size_t distinct() const { return failures_.size(); }

private:
  const model::Program &p_;
  std::map<std::string, Failure> &failures_;
  const testcase::Catalog *catalog_;
};

} // namespace mosaic::stages
