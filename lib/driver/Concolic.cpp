// The concolic side of `generate` (Concolic.h).
#include "Concolic.h"

#include "mosaic/driver/Toolchain.h"
#include "mosaic/model/Description.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

namespace mosaic::driver {

namespace fs = std::filesystem;

ConcolicSide concolicSide(const Session &session, const GenerateOptions &options, const exec::Limits &limits,
                          std::ostream &err) {
  ConcolicSide s;
  if (!options.concolic) {
    s.why = "off";
    return s;
  }
  harness::BuildOptions build;
  build.workDir = fs::path(session.harness.directory).parent_path().string();
  build.sanitize = options.sanitize;
  build.symbolic = true;
  if (!session.harness.project.empty()) build.reuseProject = session.harness.directory;
  auto h = harness::buildHarness(session.program, *session.catalog, toolchain(), build);
  if (!h) {
    s.why = "the unit's symbolic harness does not build";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", h.error().message);
    return s;
  }
  auto description = model::readDescription(h->description);
  if (!description || description->sides != session.description.sides) {
    s.why = "the symbolic harness numbers the branches otherwise";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", s.why);
    return s;
  }
  exec::ServerOptions server;
  server.harness = h->binary;
  server.log = (fs::path(h->directory) / "server.log").string();
  server.env = exec::sanitizerEnvironment(options.memoryMb);
  server.sanitized = options.sanitize;
  server.symbolic = true;
  auto started = exec::ForkServer::start(server, description->blocks, description->sides);
  if (!started) {
    s.why = "the symbolic harness does not start";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", started.error().message);
    return s;
  }
  s.harness = std::move(*h);
  s.server = std::move(*started);
  concolic::HybridOptions o;
  o.seed = options.seed;
  s.hybrid = std::make_unique<concolic::Hybrid>(session.program, session.description, *s.server, limits,
                                                concolic::makeSelection(options.concolicSelection), o);
  s.why = options.concolicSelection;
  return s;
}

void printConcolic(const ConcolicSide &side, std::uint64_t executions, std::ostream &out) {
  if (!side.hybrid) {
    if (side.why != "off") fmt::print(out, "concolic     off: {}\n", side.why);
    return;
  }
  const concolic::HybridStats &s = side.hybrid->stats();
  fmt::print(out,
             "concolic     {}: {} symbolic runs ({:.1f}% of executions), {} path conditions, {} values made "
             "concrete, {} branches offered; "
             "{} queries: {} sat, {} unsat, {} unknown ({} cached); {} tests from models, {} new goals; "
             "{:.1f} s, share {:.2f}\n",
             side.why, s.symbolicRuns,
             executions + s.symbolicRuns ? 100.0 * static_cast<double>(s.symbolicRuns) /
                                               static_cast<double>(executions + s.symbolicRuns)
                                         : 0.0,
             s.pathConditions, s.concretized, s.candidates, s.solver.queries, s.solver.sat, s.solver.unsat, s.solver.unknown,
             s.solver.cached, s.solverTests, s.newGoals, s.seconds, s.share);
}

nlohmann::json concolicJson(const ConcolicSide &side, std::uint64_t executions) {
  if (!side.hybrid) return {{"on", false}, {"why", side.why}};
  const concolic::HybridStats &s = side.hybrid->stats();
  return {{"on", true},
          {"selection", side.why},
          {"symbolic_runs", s.symbolicRuns},
          {"executions", executions},
          {"path_conditions", s.pathConditions},
          {"concretized", s.concretized},
          {"branches_offered", s.candidates},
          {"queries", s.solver.queries},
          {"sat", s.solver.sat},
          {"unsat", s.solver.unsat},
          {"unknown", s.solver.unknown},
          {"cached", s.solver.cached},
          {"solver_seconds", s.solver.seconds},
          {"tests_from_models", s.solverTests},
          {"new_goals", s.newGoals},
          {"seconds", s.seconds},
          {"share", s.share}};
}

} // namespace mosaic::driver
