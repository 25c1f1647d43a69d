// Printing and writing what `mosaic run` found.
#include "RunReport.h"

#include "mosaic/search/Search.h"
#include "mosaic/testcase/Printer.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace mosaic::driver {

namespace {

double rate(const RunResults &r) { return r.elapsed > 0 ? r.executions / r.elapsed : 0; }
double percent(std::size_t a, std::size_t b) { return b ? 100.0 * a / b : 0.0; }

} // namespace

void printResults(const RunResults &r, std::ostream &out) {
  fmt::print(out, "executions   {} in {:.1f} s ({:.0f}/s), seed {}\n", r.executions, r.elapsed, rate(r),
             r.options.seed);
  for (const search::CriterionCoverage &c : search::coverageByCriterion(r.goals, r.archive))
    fmt::print(out, "{:<12} {} of {} ({:.1f}%)\n", c.criterion->plural(), c.covered, c.total, percent(c.covered, c.total));
  std::vector<std::string> counts;
  for (int o = 0; o < exec::kOutcomeCount; ++o)
    if (r.outcomes[o]) counts.push_back(fmt::format("{} {}", exec::toString(static_cast<exec::Outcome>(o)), r.outcomes[o]));
  fmt::print(out, "outcomes     {}\n", fmt::join(counts, ", "));
  fmt::print(out, "failures     {}\n",
             r.failures.empty() ? std::string("none") : std::to_string(r.failures.size()) + " distinct");
  int n = 0;
  for (const auto &[key, c] : r.failures) {
    if (!c.confirmed)
      fmt::print(out, "  {}. {} in {} (seen {} times); not confirmed alone (the budget ended); the test of {} statements:\n",
                 ++n, exec::describe(c.result), c.where, c.count, c.test.statements.size());
    else if (c.reproducible)
      fmt::print(out, "  {}. {} in {} (seen {} times); a minimal test of {} statements:\n", ++n,
                 exec::describe(c.result), c.where, c.count, c.test.statements.size());
    else
      fmt::print(out,
                 "  {}. {} in {} (seen {} times); not reproducible in a fresh process (it depends on an earlier "
                 "test); the test of {} statements:\n",
                 ++n, exec::describe(c.result), c.where, c.count, c.test.statements.size());
    fmt::print(out, "{}", testcase::toCode(r.program, c.test, "       "));
  }
}

void writeResults(const RunResults &r, const Session &session, const std::string &path) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["unit"] = r.program.unit;
  j["seed"] = r.options.seed;
  j["budget_seconds"] = r.options.budgetSeconds;
  j["elapsed_seconds"] = r.elapsed;
  j["executions"] = r.executions;
  j["executions_per_second"] = rate(r);
  j["harness"] = {{"binary", session.harness.binary},
                  {"cached", session.harness.cached},
                  {"build_seconds", session.buildSeconds},
                  {"sanitize", r.options.sanitize},
                  {"restarts", session.server->restarts()}};
  for (const search::CriterionCoverage &c : search::coverageByCriterion(r.goals, r.archive))
    j["goals"][std::string(c.criterion->name())] = {{"covered", c.covered}, {"total", c.total}};
  for (int o = 0; o < exec::kOutcomeCount; ++o)
    j["outcomes"][exec::toString(static_cast<exec::Outcome>(o))] = r.outcomes[o];
  j["failures"] = Json::array();
  for (const auto &[key, c] : r.failures)
    j["failures"].push_back({{"outcome", exec::toString(c.result.outcome)},
                             {"signal", c.result.signal},
                             {"exit_code", c.result.exitCode},
                             {"statement", c.result.statement},
                             {"callable", c.where},
                             {"count", c.count},
                             {"reproducible", c.reproducible},
                             {"confirmed", c.confirmed},
                             {"test", testcase::toCode(r.program, c.test, "")},
                             {"output", c.output}});
  j["harness_errors"] = Json::array();
  for (const auto &[t, invalid] : r.harnessErrors)
    j["harness_errors"].push_back({{"invalid_statement", invalid}, {"test", testcase::toCode(r.program, t, "")}});
  j["not_callable"] = Json::array();
  for (const auto &[sig, why] : r.notCallable) j["not_callable"].push_back({{"callable", sig}, {"reason", why}});
  std::ofstream(path) << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

} // namespace mosaic::driver
