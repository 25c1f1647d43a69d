// The concolic side of `generate` (Concolic.h).
#include "Concolic.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace mosaic::driver {

std::optional<std::string> concolicOptionsError(const GenerateOptions &options) {
  if (!concolic::makeSelection(options.concolicSelection))
    return fmt::format("unknown concolic selection '{}' (knn, fifo)", options.concolicSelection);
  if (options.concolicFlips != "approach" && options.concolicFlips != "uncovered")
    return fmt::format("unknown concolic flips '{}' (approach, uncovered)", options.concolicFlips);
  return std::nullopt;
}

ConcolicSide concolicSide(const Session &session, const GenerateOptions &options, const exec::Limits &limits,
                          std::ostream &err, bool dependences) {
  ConcolicSide s;
  if (!options.concolic) {
    s.why = "off";
    return s;
  }
  harness::BuildOptions build;
  build.sanitize = options.sanitize;
  build.symbolic = true;
  auto h = buildVariant(session, build);
  if (!h) {
    s.why = "the unit's symbolic harness does not build";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", h.error().message);
    return s;
  }
  exec::ServerOptions server;
  server.env = exec::sanitizerEnvironment(options.memoryMb);
  server.sanitized = options.sanitize;
  server.symbolic = true;
  auto started = serveVariant(*h, server);
  if (!started) {
    s.why = "the symbolic harness does not start";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", started.error().message);
    return s;
  }
  if (started->description.sides != session.description.sides) {
    s.why = "the symbolic harness numbers the branches otherwise";
    fmt::print(err, "mosaic: note: no concolic execution: {}\n", s.why);
    return s;
  }
  s.harness = std::move(*h);
  s.server = std::move(started->server);
  concolic::HybridOptions o;
  o.seed = options.seed;
  o.solverTimeoutMs = options.concolicTimeoutMs;
  o.approachFlips = options.concolicFlips == "approach";
  o.dependences = dependences;
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
             "concrete, {} branches offered ({} toward covered sides on the way to uncovered ones, {} from unsat cores); "
             "{} queries: {} sat, {} unsat, {} unknown ({} cached, {} made goals); {} tests from models, {} new "
             "goals ({} where the search was stuck){}; {:.1f} s (symbolic runs {:.1f}, queries made {:.1f}, Z3 {:.1f}, "
             "selection {:.1f}, solver's tests run {:.1f}), share {:.2f}\n",
             side.why, s.symbolicRuns,
             executions + s.symbolicRuns ? 100.0 * static_cast<double>(s.symbolicRuns) /
                                               static_cast<double>(executions + s.symbolicRuns)
                                         : 0.0,
             s.pathConditions, s.concretized, s.candidates, s.approachCandidates, s.relaxCandidates, s.solver.queries, s.solver.sat, s.solver.unsat, s.solver.unknown,
             s.solver.cached, s.undecided, s.solverTests, s.newGoals, s.stuckGoals,
             s.newSides ? fmt::format(", {} sides on the way to the crash's line taken first ({} where the search was stuck)",
                                      s.newSides, s.stuckSides)
                        : std::string(),
             s.seconds, s.runSeconds, s.offerSeconds,
             s.solver.seconds, s.selectSeconds, s.evaluateSeconds, s.share);
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
          {"approach_offered", s.approachCandidates},
          {"relax_offered", s.relaxCandidates},
          {"queries", s.solver.queries},
          {"sat", s.solver.sat},
          {"unsat", s.solver.unsat},
          {"unknown", s.solver.unknown},
          {"cached", s.solver.cached},
          {"undecided_goals", s.undecided},
          {"solver_seconds", s.solver.seconds},
          {"tests_from_models", s.solverTests},
          {"new_goals", s.newGoals},
          {"stuck_goals", s.stuckGoals},
          {"new_sides", s.newSides},
          {"stuck_sides", s.stuckSides},
          {"seconds", s.seconds},
          {"run_seconds", s.runSeconds},
          {"offer_seconds", s.offerSeconds},
          {"select_seconds", s.selectSeconds},
          {"evaluate_seconds", s.evaluateSeconds},
          {"share", s.share}};
}

} // namespace mosaic::driver
