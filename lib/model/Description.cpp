// Reading the pass's static description.
#include "mosaic/model/Description.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace mosaic::model {

std::size_t UnitDescription::lineCount() const {
  std::set<std::uint32_t> lines;
  for (const FunctionInfo &f : functions)
    for (const BlockInfo &b : f.blocks) lines.insert(b.lines.begin(), b.lines.end());
  return lines.size();
}

Expected<UnitDescription> readDescription(const std::string &path) {
  std::ifstream in(path);
  if (!in) return Error::input("cannot read the unit description '" + path + "'");
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    const int format = j.at("format").get<int>();
    if (format != UnitDescription::kFormatVersion)
      return Error::input("unit description '" + path + "' has format " + std::to_string(format) + ", expected " +
                          std::to_string(UnitDescription::kFormatVersion));
    UnitDescription d;
    d.unit = j.at("unit").get<std::string>();
    d.blocks = j.at("blocks").get<std::uint32_t>();
    d.sides = j.at("sides").get<std::uint32_t>();
    d.mutants = j.at("mutants").get<std::uint32_t>();
    for (const auto &jf : j.at("functions")) {
      FunctionInfo f;
      f.linkageName = jf.at("linkage_name").get<std::string>();
      f.name = jf.at("name").get<std::string>();
      f.file = jf.at("file").get<std::string>();
      f.line = jf.at("line").get<std::uint32_t>();
      f.entry = jf.at("entry").get<std::uint32_t>();
      f.diameter = jf.at("diameter").get<std::uint32_t>();
      for (const auto &jb : jf.at("blocks")) {
        BlockInfo b;
        b.id = jb.at("id").get<std::uint32_t>();
        b.lines = jb.at("lines").get<std::vector<std::uint32_t>>();
        b.successors = jb.at("succ").get<std::vector<std::uint32_t>>();
        b.deps = jb.at("deps").get<std::vector<std::uint32_t>>();
        f.blocks.push_back(std::move(b));
      }
      for (const auto &jb : jf.at("branches")) {
        BranchInfo b;
        b.block = jb.at("block").get<std::uint32_t>();
        b.isSwitch = jb.at("kind").get<std::string>() == "switch";
        b.line = jb.at("line").get<std::uint32_t>();
        b.column = jb.at("column").get<std::uint32_t>();
        for (const auto &js : jb.at("sides")) {
          SideInfo s;
          s.id = js.at("id").get<std::uint32_t>();
          s.target = js.at("to").get<std::uint32_t>();
          if (js.contains("value")) s.value = js.at("value").get<std::int64_t>();
          s.isDefault = js.value("default", false);
          b.sides.push_back(s);
        }
        f.branches.push_back(std::move(b));
      }
      for (const auto &jm : jf.at("mutants")) {
        MutantInfo m;
        m.id = jm.at("id").get<std::uint32_t>();
        m.block = jm.at("block").get<std::uint32_t>();
        m.line = jm.at("line").get<std::uint32_t>();
        m.column = jm.at("column").get<std::uint32_t>();
        m.op = jm.at("operator").get<std::string>();
        m.original = jm.at("original").get<std::string>();
        m.replacement = jm.at("replacement").get<std::string>();
        m.subsuming = jm.at("subsuming").get<bool>();
        f.mutants.push_back(std::move(m));
      }
      d.functions.push_back(std::move(f));
    }
    return d;
  } catch (const std::exception &e) {
    return Error::input("malformed unit description '" + path + "': " + e.what());
  }
}

} // namespace mosaic::model
