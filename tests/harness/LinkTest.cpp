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

namespace {

// A harness source of two call functions (as CodegenCalls.cpp writes them)
// and a line of its own before them.
const std::string kHarness = "#include \"unit.cpp\"\n"                            // 1
                             "static int shared_helper(void) { return 0; }\n"     // 2
                             "/* ns::f(char *) */\n"                              // 3
                             "static int __mosaic_call_4(mosaic_ctx *ctx, const mosaic_stmt *s) {\n" // 4
                             "  ns::f(0);\n"                                      // 5
                             "}\n"                                                // 6
                             "/* ns::g(int) */\n"                                 // 7
                             "static int __mosaic_call_5(mosaic_ctx *ctx, const mosaic_stmt *s) {\n" // 8
                             "  ns::g(*a0);\n"                                    // 9
                             "}\n";                                               // 10

} // namespace

TEST(UncompilableCallables, BlamesTheCallWhoseFunctionHoldsTheError) {
  const std::string out = "/w/harness.cpp:5:3: error: call to 'f' is ambiguous\n"
                          "/w/unit.h:3:5: note: candidate function\n"
                          "/w/unit.h:4:5: note: candidate function\n"
                          "1 error generated.\n";
  const auto blamed = harness::uncompilableCallables(kHarness, "/w/harness.cpp", out);
  ASSERT_EQ(blamed.size(), 1u);
  EXPECT_EQ(blamed.begin()->first, "ns::f(char *)");
  EXPECT_EQ(blamed.begin()->second, "call to 'f' is ambiguous");
}

TEST(UncompilableCallables, FollowsATemplateInstantiatedFromACallFunction) {
  // The error is in a header; a note says which call instantiated it.
  const std::string out = "/w/unit.h:20:10: error: no member named 'x' in 'int'\n"
                          "/w/harness.cpp:9:3: note: in instantiation of function template specialization "
                          "'ns::g<int>' requested here\n";
  const auto blamed = harness::uncompilableCallables(kHarness, "/w/harness.cpp", out);
  ASSERT_EQ(blamed.size(), 1u);
  EXPECT_EQ(blamed.begin()->first, "ns::g(int)");
}

TEST(UncompilableCallables, AnAliasThatDoesNotCompileBlamesTheCallsUsingIt) {
  // A type the front end could not spell from outside its scope: without
  // the calls that use it, the alias is not written.
  const std::string source = "#include \"unit.cpp\"\n"                                  // 1
                             "using __mosaic_t7 = decltype(hidden(), true);\n"         // 2
                             "using __mosaic_t8 = int;\n"                              // 3
                             "/* ns::f(char *) */\n"                                   // 4
                             "static int __mosaic_call_4(mosaic_ctx *ctx, const mosaic_stmt *s) {\n" // 5
                             "  __mosaic_t7 *out = 0; __mosaic_t8 k;\n"               // 6
                             "}\n"                                                     // 7
                             "/* ns::g(int) */\n"                                      // 8
                             "static int __mosaic_call_5(mosaic_ctx *ctx, const mosaic_stmt *s) {\n" // 9
                             "  __mosaic_t8 *a0 = 0; __mosaic_t70 *b = 0;\n"          // 10
                             "}\n";                                                    // 11
  const auto blamed = harness::uncompilableCallables(
      source, "/w/harness.cpp", "/w/harness.cpp:2:30: error: use of undeclared identifier 'hidden'\n");
  ASSERT_EQ(blamed.size(), 1u);
  EXPECT_EQ(blamed.begin()->first, "ns::f(char *)");
  EXPECT_NE(blamed.begin()->second.find("undeclared identifier 'hidden'"), std::string::npos);
  // (__mosaic_t70 is another alias.) An alias both calls use blames both.
  EXPECT_EQ(harness::uncompilableCallables(source, "/w/harness.cpp", "/w/harness.cpp:3:1: error: x\n").size(), 2u);
}

TEST(UncompilableCallables, AnErrorOutsideTheCallsThatNamesAFailedAliasGoesWithIt) {
  // re2's `using __mosaic_t205 = re2::SparseSetT::iterator;` also breaks an
  // accessor that casts to it: that error is the alias's, not an orphan.
  const std::string source = "using __mosaic_t7 = re2::SparseSetT::iterator;\n"          // 1
                             "static void *__mosaic_ref_1(int type, void *s) {\n"        // 2
                             "  if (type == 7) return (__mosaic_t7 *)(s);\n"             // 3
                             "}\n"                                                        // 4
                             "/* re2::f(int) */\n"                                        // 5
                             "static int __mosaic_call_4(mosaic_ctx *ctx, const mosaic_stmt *s) {\n" // 6
                             "  __mosaic_t7 *out = 0;\n"                                  // 7
                             "}\n";                                                       // 8
  const std::string out = "/w/harness.cpp:1:26: error: no type named 'SparseSetT' in namespace 're2'\n"
                          "/w/harness.cpp:3:30: error: use of undeclared identifier '__mosaic_t7'\n";
  const auto blamed = harness::uncompilableCallables(source, "/w/harness.cpp", out);
  ASSERT_EQ(blamed.size(), 1u);
  EXPECT_EQ(blamed.begin()->first, "re2::f(int)");
  // Without the alias's own error, the accessor's is an orphan.
  EXPECT_TRUE(harness::uncompilableCallables(source, "/w/harness.cpp",
                                             "/w/harness.cpp:3:30: error: use of undeclared identifier 'x'\n").empty());
}

TEST(UnlinkableCallables, BlamesTheCallFunctionThatNeedsTheMissingSymbol) {
  // fmt's inline namespace (fmt::v9::) is in the linker's name, not the
  // model's: the call function the linker names is what to leave out.
  const std::string out =
      "/usr/bin/ld: harness.o: in function `__mosaic_call_5(mosaic_ctx*, mosaic_stmt const*)':\n"
      "harness.cpp:9: undefined reference to `fmt::v9::detail::value<char>::value(fmt::v9::detail::unformattable)'\n"
      "/usr/bin/ld: harness.o: in function `__mosaic_helper(mosaic_ctx*)':\n"
      "harness.cpp:2: undefined reference to `elsewhere()'\n";
  const auto blamed = harness::unlinkableCallables(kHarness, out);
  ASSERT_EQ(blamed.size(), 1u);
  EXPECT_EQ(blamed.begin()->first, "ns::g(int)");
  EXPECT_EQ(blamed.begin()->second,
            "it does not link: undefined reference to fmt::v9::detail::value<char>::value(fmt::v9::detail::unformattable)");
}

TEST(UncompilableCallables, BlamesNoneWhenAnErrorIsOutsideEveryCall) {
  // The unit itself, or what all calls share: leaving callables out would
  // not help.
  const std::string out = "/w/harness.cpp:5:3: error: call to 'f' is ambiguous\n"
                          "/w/unit.cpp:2:1: error: unknown type name 'foo'\n";
  EXPECT_TRUE(harness::uncompilableCallables(kHarness, "/w/harness.cpp", out).empty());
  EXPECT_TRUE(harness::uncompilableCallables(kHarness, "/w/harness.cpp",
                                             "/w/harness.cpp:2:1: error: expected ';'\n").empty());
}
