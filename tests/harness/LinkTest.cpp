// Reading what a linker could not resolve (harness/Link.h).
#include "mosaic/harness/Link.h"

#include <gtest/gtest.h>

using namespace mosaic;

namespace {

std::pair<std::string, size_t> named(const std::string &demangled) {
  auto f = harness::functionNameAndArity(demangled);
  return f ? *f : std::make_pair(std::string("<none>"), size_t(99));
}

} // namespace

TEST(FunctionNameAndArity, ReadsQualifiedNamesParametersAndQualifiers) {
  EXPECT_EQ(named("YAML::Node::Node()"), std::make_pair(std::string("YAML::Node::Node"), size_t(0)));
  EXPECT_EQ(named("YAML::Node::~Node()"), std::make_pair(std::string("YAML::Node::~Node"), size_t(0)));
  EXPECT_EQ(named("YAML::Node::operator[](YAML::Node const&) const"),
            std::make_pair(std::string("YAML::Node::operator[]"), size_t(1)));
  EXPECT_EQ(named("YAML::Node::SetTag(std::__cxx11::basic_string<char, std::char_traits<char>, "
                  "std::allocator<char> > const&)"),
            std::make_pair(std::string("YAML::Node::SetTag"), size_t(1)));
  EXPECT_EQ(named("f(std::map<int, int>, int (*)(int, int), void)"), std::make_pair(std::string("f"), size_t(3)));
  EXPECT_EQ(named("g(void)"), std::make_pair(std::string("g"), size_t(0)));
}

TEST(FunctionNameAndArity, DropsATemplateFunctionsResultTypeButNotAnOperatorsSpelling) {
  EXPECT_EQ(named("std::pair<int, int> ns::make<int>(int, int)"), std::make_pair(std::string("ns::make<int>"), size_t(2)));
  EXPECT_EQ(named("bool ns::operator< <int>(ns::Box<int> const&, ns::Box<int> const&)"),
            std::make_pair(std::string("ns::operator< <int>"), size_t(2)));
  EXPECT_EQ(named("ns::Box::operator()(int) const"), std::make_pair(std::string("ns::Box::operator()"), size_t(1)));
  EXPECT_EQ(named("(anonymous namespace)::helper(int)"),
            std::make_pair(std::string("(anonymous namespace)::helper"), size_t(1)));
}

TEST(FunctionNameAndArity, RefusesWhatIsNoFunction) {
  EXPECT_FALSE(harness::functionNameAndArity("vtable for Gadget"));
  EXPECT_FALSE(harness::functionNameAndArity("global_counter"));
  EXPECT_FALSE(harness::functionNameAndArity("(x) y"));
}

TEST(UnlinkedFunctions, ReadsUndefinedSymbolsTheirUsersAndVtables) {
  const std::string ld =
      "/usr/bin/ld: harness.o: in function `__mosaic_call_49(mosaic_ctx*, mosaic_stmt const*)':\n"
      "/tmp/w/harness.cpp:1470: undefined reference to `YAML::Node::Node()'\n"
      "/usr/bin/ld: harness.o: in function `YAML::detail::iterator_value::iterator_value(YAML::Node const&)':\n"
      "iterator.h:24: undefined reference to `YAML::Node::Node(YAML::Node::Zombie)'\n"
      "/usr/bin/ld: x.o: undefined reference to `vtable for ns::Shape'\n"
      "ld.lld: error: undefined symbol: Gadget::level() const\n"
      "clang++-19: error: linker command failed with exit code 1 (use -v to see invocation)\n";
  const testcase::Unlinked u = harness::unlinkedFunctions(ld);
  EXPECT_TRUE(u.contains("YAML::Node::Node", 0));
  EXPECT_TRUE(u.contains("YAML::Node::Node", 1));
  EXPECT_TRUE(u.contains("YAML::detail::iterator_value::iterator_value", 1)); // needs Node(Zombie)
  EXPECT_TRUE(u.contains("ns::Shape::~Shape", 0));
  EXPECT_TRUE(u.contains("Gadget::level", 0));
  EXPECT_EQ(u.functions.size(), 5u); // mosaic's own __mosaic_call_49 is not the unit's
}
