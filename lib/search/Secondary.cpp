// Secondary objectives by name.
#include "mosaic/search/Secondary.h"

namespace mosaic::search {

namespace {

class ShorterTest final : public SecondaryObjective {
public:
  std::string_view name() const override { return "length"; }
  int compare(size_t, const Scored &a, const Scored &b) const override {
    const size_t x = a.test.statements.size(), y = b.test.statements.size();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  bool perGoal() const override { return false; }
};

} // namespace

std::unique_ptr<const SecondaryObjective> shorterTest() { return std::make_unique<ShorterTest>(); }

const std::vector<std::string> &secondaryNames() {
  static const std::vector<std::string> names = {"length", "bbc"};
  return names;
}

Expected<std::unique_ptr<const SecondaryObjective>> makeSecondary(const std::string &name, const Goals &goals,
                                                                  BbcOptions bbc) {
  if (name == "length") return shorterTest();
  if (name == "bbc") return basicBlockCoverage(goals, shorterTest(), std::move(bbc));
  return Error::usage("unknown secondary objective '" + name + "' (known: length, bbc)");
}

} // namespace mosaic::search
