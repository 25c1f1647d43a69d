// What `run` (and later `generate`) set up before the first test: the
// unit's model, its harness, its description and a running fork server.
#pragma once

#include "mosaic/driver/Options.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/harness/Build.h"
#include "mosaic/model/Description.h"
#include "mosaic/model/Program.h"
#include "mosaic/support/CpuPin.h"
#include "mosaic/testcase/Catalog.h"

#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mosaic::driver {

struct SessionOptions {
  AnalyzeOptions unit;
  std::string workDir;      ///< "" = BUILD_DIR/mosaic
  bool sanitize = false;
  std::uint32_t memoryMb = 1024;
  bool weakMutation = false; ///< the harness with the mutants' infection probes
  /// The session's thread and its fork servers on one free CPU (CpuPin.h);
  /// off with --no-cpu-pin.
  bool pinCpu = true;
  /// With pinCpu: the fork server on a second free CPU (CpuPin::spare,
  /// ServerOptions::cpu); off with --one-cpu.
  bool spareCpu = true;
};

struct Session {
  model::Program program;
  std::unique_ptr<testcase::Catalog> catalog;
  harness::Harness harness;
  double buildSeconds = 0;
  model::UnitDescription description;
  std::unique_ptr<exec::ForkServer> server;
  /// The CPU the session's thread and servers run on; null when unpinned.
  std::unique_ptr<CpuPin> pin;
  /// The mutants the harness probes (its trace's room for them): the
  /// description's in a weak-mutation build, else none.
  std::uint32_t probedMutants = 0;
  std::vector<model::CallableId> targets; ///< the callable ones
  std::vector<std::pair<std::string, std::string>> notCallable; ///< signature, why
};

/// Analyses the unit, selects targets, builds the harness and starts its
/// fork server; notes and errors go to `err`. On failure returns the exit
/// code to end with.
std::variant<std::unique_ptr<Session>, int> openSession(const SessionOptions &options, std::ostream &err);

/// Why a session has no target to call, for the error that ends `run` and
/// `generate`: the unit defines nothing to test (a file of data tables, or
/// of declarations only), or none of what it defines can be called.
std::string whyNoTargets(const Session &session);

/// The unit, its harness and its targets (and why the others cannot be
/// called), as `run` and `generate` print them first.
void printSession(const Session &session, std::ostream &out);

/// openSession, then printSession to `out`, and an error (kExitUsage) for a
/// unit with nothing to call (whyNoTargets): how `run`, `generate` and
/// `reproduce` start.
std::variant<std::unique_ptr<Session>, int> openTestableSession(const SessionOptions &options, std::ostream &out,
                                                                std::ostream &err);

/// Per-test limits from the command line's --timeout, --memory, --isolate.
exec::Limits testLimits(std::uint32_t timeoutMs, std::uint32_t memoryMb, bool isolate);

/// Another harness of the session's unit (sanitized, with mutant schemata,
/// symbolic: as `build` says), in the session's work folder and with the
/// project's other units as the session's harness linked them (only the
/// unit is rebuilt).
Expected<harness::Harness> buildVariant(const Session &session, harness::BuildOptions build);

/// Its static description and its fork server, started as `server` says
/// (the harness binary and its log, server.log beside it, filled in; with
/// the mutants' area when `mutants`).
struct ServedVariant {
  model::UnitDescription description;
  std::unique_ptr<exec::ForkServer> server;
};
Expected<ServedVariant> serveVariant(const harness::Harness &variant, exec::ServerOptions server, bool mutants = false);

} // namespace mosaic::driver
