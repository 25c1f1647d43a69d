// `mosaic analyze`.
#include "mosaic/driver/Analyze.h"

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Json.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace mosaic::driver {

namespace {

int exitCodeFor(const Error &e) { return e.kind == ErrorKind::Internal ? kExitInternal : kExitUsage; }

void printError(const Error &e, std::ostream &err) {
  fmt::print(err, "mosaic: error: {}\n", e.message);
  if (!e.detail.empty()) fmt::print(err, "{}{}", e.detail, e.detail.back() == '\n' ? "" : "\n");
}

std::string plural(size_t n, const char *one, const char *many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// One line per target: result, name, parameters with their roles, place.
void printTargets(const model::Program &p, std::ostream &out) {
  constexpr size_t kShown = 40; // a screenful; --json has them all
  for (size_t i = 0; i < p.targets.size() && i < kShown; ++i) {
    const model::Callable &c = p.callable(p.targets[i]);
    std::vector<std::string> params;
    for (const model::Param &param : c.params) {
      std::string text = p.type(param.type).spelling;
      if (!param.name.empty()) text += (text.back() == '*' || text.back() == '&' ? "" : " ") + param.name;
      if (param.role != model::ParamRole::None) text += fmt::format(" [{}]", model::toString(param.role));
      else if (param.written) text += " [written]";
      params.push_back(std::move(text));
    }
    const std::string result = c.kind == model::CallableKind::Constructor ? "" : p.type(c.result).spelling + " ";
    const auto slash = c.location.file.rfind('/');
    fmt::print(out, "  {}{}({}){}  {}:{}\n", result, c.qualifiedName, fmt::join(params, ", "), c.isConst ? " const" : "",
               slash == std::string::npos ? c.location.file : c.location.file.substr(slash + 1), c.location.beginLine);
  }
  if (p.targets.size() > kShown) fmt::print(out, "  (+{} more; --json writes them all)\n", p.targets.size() - kShown);
}

} // namespace

void printSummary(const model::Program &p, std::ostream &out) {
  using model::CallableKind;
  fmt::print(out, "unit      {} ({})\n", p.unit, p.language == "c" ? "C" : "C++");

  size_t functions = 0, internal = 0, ctors = 0, methods = 0, constMethods = 0, statics = 0, operators = 0;
  std::set<model::RecordId> targetRecords;
  for (model::CallableId id : p.targets) {
    const model::Callable &c = p.callable(id);
    if (c.parent) targetRecords.insert(*c.parent);
    switch (c.kind) {
    case CallableKind::Function:
      ++functions;
      internal += c.internalLinkage;
      break;
    case CallableKind::Constructor: ++ctors; break;
    case CallableKind::Method:
      ++methods;
      constMethods += c.isConst;
      break;
    case CallableKind::StaticMethod: ++statics; break;
    case CallableKind::Operator: ++operators; break;
    }
  }
  size_t dataMembers = 0;
  for (model::RecordId id : targetRecords)
    for (const model::Field &f : p.record(id).fields) dataMembers += f.access == model::Access::Public;

  std::vector<std::string> parts;
  if (functions) parts.push_back(fmt::format("{} ({} static)", plural(functions, "function", "functions"), internal));
  if (ctors) parts.push_back(plural(ctors, "constructor", "constructors"));
  if (methods) parts.push_back(fmt::format("{} ({} const)", plural(methods, "method", "methods"), constMethods));
  if (statics) parts.push_back(plural(statics, "static method", "static methods"));
  if (operators) parts.push_back(plural(operators, "operator", "operators"));
  if (dataMembers) parts.push_back(plural(dataMembers, "public data member", "public data members"));
  fmt::print(out, "targets   {}: {}\n", plural(p.targets.size(), "callable", "callables"),
             parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", ")));
  printTargets(p, out);
  std::map<model::Origin, size_t> helpersByOrigin;
  const std::set<model::CallableId> targets(p.targets.begin(), p.targets.end());
  for (const model::Callable &c : p.callables)
    if (!targets.count(c.id)) ++helpersByOrigin[c.origin];
  if (p.callables.size() > p.targets.size()) {
    std::vector<std::string> origins;
    for (auto [o, n] : helpersByOrigin) origins.push_back(fmt::format("{} {}", n, model::toString(o)));
    fmt::print(out, "helpers   {} other callables seen ({})\n", p.callables.size() - p.targets.size(),
               fmt::join(origins, ", "));
  }

  size_t ownedRecords = 0;
  for (const model::Record &r : p.records) ownedRecords += r.ownedByUnit;
  fmt::print(out, "records   {} ({} owned by the unit), {}\n", p.records.size(), ownedRecords,
             plural(p.enums.size(), "enum", "enums"));
  std::map<std::string, size_t> kinds;
  for (const model::Type &t : p.types) ++kinds[model::toString(t.kind)];
  std::vector<std::string> kindParts;
  for (const auto &[k, n] : kinds) kindParts.push_back(fmt::format("{} {}", n, k));
  fmt::print(out, "types     {}: {}\n", p.types.size(), fmt::join(kindParts, ", "));

  // Grouped by reason, in order of first appearance; only what concerns the
  // unit (what its included headers declare is in the JSON).
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> byReason;
  size_t elsewhere = 0;
  for (const model::Skipped &s : p.skipped) {
    if (!model::concernsUnit(p, s)) {
      ++elsewhere;
      continue;
    }
    auto &names = byReason[s.what + ": " + s.reason];
    if (names.empty()) order.push_back(s.what + ": " + s.reason);
    names.push_back(s.name);
  }
  const size_t own = p.skipped.size() - elsewhere;
  fmt::print(out, "skipped   {}{}\n", own ? std::to_string(own) : std::string("none"),
             elsewhere ? fmt::format(" (and {} in included headers; --json lists them)", elsewhere) : "");
  constexpr size_t kNamesShown = 4; // enough to recognise, short enough to scan
  for (const std::string &reason : order) {
    const auto &names = byReason[reason];
    std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kNamesShown));
    fmt::print(out, "  {} x {}: {}{}\n", names.size(), reason, fmt::join(shown, ", "),
               names.size() > kNamesShown ? fmt::format(" (+{} more)", names.size() - kNamesShown) : "");
  }
}

int runAnalyze(const AnalyzeOptions &options, std::ostream &out, std::ostream &err) {
  auto program = analysis::analyzeUnit({options.buildDir, options.unit, options.projectSamples});
  if (!program) {
    printError(program.error(), err);
    return exitCodeFor(program.error());
  }
  for (const std::string &note : program->notes) fmt::print(err, "mosaic: note: {}\n", note);
  auto selected = model::selectTargets(*program, {options.function, options.className});
  if (!selected) {
    printError(selected.error(), err);
    return exitCodeFor(selected.error());
  }
  if (options.jsonOut == "-") {
    out << model::toJson(*program);
    return kExitOk;
  }
  printSummary(*program, out);
  if (!options.jsonOut.empty()) {
    std::ofstream file(options.jsonOut, std::ios::binary);
    file << model::toJson(*program);
    if (!file) {
      printError(Error::input("cannot write '" + options.jsonOut + "'"), err);
      return kExitUsage;
    }
    fmt::print(out, "model     written to {}\n", options.jsonOut);
  }
  return kExitOk;
}

} // namespace mosaic::driver
