// Setting up a unit for running tests.
#include "Session.h"

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/harness/Link.h"
#include "mosaic/model/Derive.h"
#include "mosaic/support/Text.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>

namespace mosaic::driver {

namespace fs = std::filesystem;

std::variant<std::unique_ptr<Session>, int> openSession(const SessionOptions &options, std::ostream &err) {
  auto s = std::make_unique<Session>();
  auto program = analysis::analyzeUnit({options.unit.buildDir, options.unit.unit, options.unit.projectSamples});
  if (!program) {
    fmt::print(err, "mosaic: error: {}\n{}", program.error().message, program.error().detail);
    return program.error().kind == ErrorKind::Internal ? kExitInternal : kExitUsage;
  }
  s->program = std::move(*program);
  for (const std::string &note : s->program.notes) fmt::print(err, "mosaic: note: {}\n", note);
  if (auto sel = model::selectTargets(s->program, {options.unit.function, options.unit.className}); !sel) {
    fmt::print(err, "mosaic: error: {}\n", sel.error().message);
    return kExitUsage;
  }
  harness::BuildOptions build;
  build.workDir = options.workDir.empty() ? (fs::path(options.unit.buildDir) / "mosaic").string() : options.workDir;
  build.sanitize = options.sanitize;
  build.weakMutation = options.weakMutation;
  const auto start = std::chrono::steady_clock::now();
  // The catalog comes with the harness: what does not link is left out.
  auto h = harness::buildLinkedHarness(s->program, s->catalog, toolchain(), build);
  if (!h) {
    fmt::print(err, "mosaic: error: {}\n{}\n", h.error().message, h.error().detail);
    return kExitUsage;
  }
  for (model::CallableId id : s->program.targets) {
    if (s->catalog->callable(id)) s->targets.push_back(id);
    else s->notCallable.emplace_back(s->program.callable(id).signature, s->catalog->whyNotCallable(id));
  }
  s->harness = std::move(*h);
  s->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const std::string &note : s->harness.notes) fmt::print(err, "mosaic: note: {}\n", note);
  auto description = model::readDescription(s->harness.description);
  if (!description) {
    fmt::print(err, "mosaic: error: {}\n", description.error().message);
    return kExitInternal;
  }
  s->description = std::move(*description);
  // The pass instruments the functions whose code is in the unit file
  // itself (instrument/Instrumenter.cpp: unitFunctions): a file whose code
  // is all in what it includes (fmt's format.cc, the explicit
  // instantiations of format-inl.h) has no goal to search for.
  // Or, when the file defines no function and makes its main header's code
  // its own (a single-header library's implementation file), in that header.
  const auto &described = s->description.functions;
  const auto canonical = [](const std::string &path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    return ec ? fs::path(path) : p;
  };
  if (!described.empty() && std::none_of(described.begin(), described.end(), [&](const auto &f) {
        return canonical(f.file) == canonical(s->program.unit);
      }))
    fmt::print(err,
               "mosaic: note: {} defines no function itself and compiles the code of its header {} (a single-header "
               "library's implementation file): the header's {} functions defined there are the unit's code\n",
               fs::path(s->program.unit).filename().string(), fs::path(s->program.mainHeader).filename().string(),
               described.size());
  if (s->description.functions.empty())
    fmt::print(err,
               "mosaic: note: no function of {} has its code in the file itself (it is in the headers the file "
               "includes, which mosaic does not instrument): there is no coverage goal to search for, and no test "
               "is written\n",
               fs::path(s->program.unit).filename().string());

  if (options.pinCpu) {
    std::string why;
    s->pin = CpuPin::onFreeCpu(&why);
    if (!s->pin) fmt::print(err, "mosaic: note: tests run on any CPU, which is slower: {}\n", why);
  }
  exec::ServerOptions server;
  server.harness = s->harness.binary;
  server.log = (fs::path(s->harness.directory) / "server.log").string();
  server.env = exec::sanitizerEnvironment(options.memoryMb);
  server.sanitized = options.sanitize;
  if (s->pin && options.spareCpu && s->pin->spare() >= 0) {
    server.cpu = s->pin->spare();
    server.callerCpu = s->pin->cpu();
  }
  s->probedMutants = options.weakMutation ? s->description.mutants : 0;
  auto started = exec::ForkServer::start(server, s->description.blocks, s->description.sides, s->probedMutants);
  if (!started) {
    fmt::print(err, "mosaic: error: {}\n{}\n", started.error().message, started.error().detail);
    return kExitInternal;
  }
  s->server = std::move(*started);
  return s;
}

void printSession(const Session &session, std::ostream &out) {
  const model::Program &p = session.program;
  fmt::print(out, "unit         {} ({})\n", p.unit, p.language == "c" ? "C" : "C++");
  fmt::print(out, "harness      {} ({})\n", session.harness.binary,
             session.harness.cached ? "cached" : fmt::format("built in {:.1f} s", session.buildSeconds));
  fmt::print(out, "targets      {} callable of {}\n", session.targets.size(), p.targets.size());
  for (const auto &[sig, why] : session.notCallable) fmt::print(out, "  cannot call {}: {}\n", sig, why);
}

exec::Limits testLimits(std::uint32_t timeoutMs, std::uint32_t memoryMb, bool isolate) {
  exec::Limits limits;
  limits.timeoutMs = timeoutMs;
  limits.memoryMb = memoryMb;
  limits.persistent = !isolate;
  return limits;
}

std::variant<std::unique_ptr<Session>, int> openTestableSession(const SessionOptions &options, std::ostream &out,
                                                                std::ostream &err) {
  auto opened = openSession(options, err);
  if (std::holds_alternative<int>(opened)) return opened;
  const Session &session = *std::get<std::unique_ptr<Session>>(opened);
  printSession(session, out);
  if (session.targets.empty()) {
    fmt::print(err, "mosaic: error: {}\n", whyNoTargets(session));
    return kExitUsage;
  }
  return opened;
}

std::string whyNoTargets(const Session &session) {
  const model::Program &p = session.program;
  const size_t defined = p.targets.size();
  // Functions defined in a source file the unit includes as part of
  // itself (lzo1x_1.c's lzo1x_c.ch, sourceFileName): code mosaic reads as
  // an include's, not the unit's.
  std::set<std::string> parts;
  for (const model::Callable &c : p.callables)
    if (c.origin == model::Origin::Header && !c.location.file.empty() && c.location.file != p.unit &&
        sourceFileName(c.location.file))
      parts.insert(fs::path(c.location.file).filename().string());
  if (defined == 0 && !parts.empty())
    return fmt::format("nothing to test in the unit's own file: its functions are defined in {}, which it includes; "
                       "mosaic tests what a unit's file defines, not what it includes",
                       fmt::join(parts, ", "));
  if (defined == 0)
    return "nothing to test: the unit defines no function or method a test could call (only data, declarations or main)";
  return fmt::format("none of the unit's {} target(s) can be called (why, above)", defined);
}

Expected<harness::Harness> buildVariant(const Session &session, harness::BuildOptions build) {
  build.workDir = fs::path(session.harness.directory).parent_path().string();
  if (!session.harness.project.empty()) build.reuseProject = session.harness.directory;
  return harness::buildHarness(session.program, *session.catalog, toolchain(), build);
}

Expected<ServedVariant> serveVariant(const harness::Harness &variant, exec::ServerOptions server, bool mutants) {
  auto description = model::readDescription(variant.description);
  if (!description) return description.takeError();
  server.harness = variant.binary;
  server.log = (fs::path(variant.directory) / "server.log").string();
  auto started = exec::ForkServer::start(server, description->blocks, description->sides,
                                         mutants ? description->mutants : 0);
  if (!started) return started.takeError();
  return ServedVariant{std::move(*description), std::move(*started)};
}

} // namespace mosaic::driver
