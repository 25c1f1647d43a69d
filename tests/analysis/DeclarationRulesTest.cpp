// What a declaration says beyond its types, in small projects written here:
// hidden friends, arrays that share one length, Doxygen's \internal.
#include "common/TestSupport.h"
#include "mosaic/analysis/FrontEnd.h"

#include <filesystem>
#include <fstream>

using namespace mosaic;
using namespace mosaic::test;

namespace {

// A one-file project: `header` as api.h, `source` as lib.c or lib.cpp.
model::Program analyzeOneFile(const std::string &tag, const std::string &header, const std::string &source, bool cxx) {
  const std::string dir = makeTempDir(tag);
  const std::string file = cxx ? "lib.cpp" : "lib.c";
  std::ofstream(dir + "/api.h") << header;
  std::ofstream(dir + "/" + file) << "#include \"api.h\"\n" << source;
  std::ofstream(dir + "/compile_commands.json")
      << "[{\"directory\": \"" << dir << "\", \"file\": \"" << file << "\", \"arguments\": [\""
      << (cxx ? "c++" : "cc") << "\", \"-c\", \"" << file << "\"]}]";
  auto program = analysis::analyzeUnit({.buildDir = dir, .unit = dir + "/" + file, .projectSamples = false});
  EXPECT_TRUE(program) << program.error().message;
  return program ? *program : model::Program{};
}

const model::Callable *named(const model::Program &p, const std::string &name) {
  for (const model::Callable &c : p.callables)
    if (c.name == name) return &c;
  return nullptr;
}

} // namespace

// libsquish's Vec3 declares `friend float Dot(Arg, Arg)` only in the class:
// `squish::Dot` names nothing, so a call spells `Dot` and ADL finds it.
TEST(DeclarationRules, AHiddenFriendIsCalledByItsPlainName) {
  const model::Program p = analyzeOneFile("mosaic-friend",
                                   "namespace geo {\nclass V {\npublic:\n  explicit V(float x) : x_(x) {}\n"
                                   "  friend float Dot(const V &a, const V &b) { return a.x_ * b.x_; }\n"
                                   "  friend float Norm(const V &a);\nprivate:\n  float x_;\n};\n"
                                   "float Norm(const V &a);\nfloat Length(const V &a);\n}\n",
                                   "namespace geo {\nfloat Norm(const V &a) { return Dot(a, a); }\n"
                                   "float Length(const V &a) { return Norm(a); }\n}\n",
                                   true);
  ASSERT_TRUE(named(p, "Dot") && named(p, "Norm") && named(p, "Length"));
  EXPECT_EQ(named(p, "Dot")->qualifiedName, "Dot");
  EXPECT_EQ(named(p, "Norm")->qualifiedName, "geo::Norm") << "declared in its namespace too: not hidden";
  EXPECT_EQ(named(p, "Length")->qualifiedName, "geo::Length");
}

// ComputeWeightedCovariance(int n, Vec3 const *points, float const
// *weights): n is the length of both arrays. A length named for one
// pointer (srcSize) is that pointer's alone.
TEST(DeclarationRules, ArraysBesideAGenericLengthShareIt) {
  const model::Program p = analyzeOneFile("mosaic-shared-length",
                                   "struct pt { float x, y; };\n"
                                   "float weigh(int n, const struct pt *points, const float *weights, int *out);\n"
                                   "float scale(const float *src, int srcSize, const float *factors);\n"
                                   "int pick(int n, const char *name, const double *values);\n",
                                   "float weigh(int n, const struct pt *points, const float *weights, int *out) {\n"
                                   "  float s = 0; for (int i = 0; i < n; ++i) s += points[i].x * weights[i];\n"
                                   "  *out = n; return s; }\n"
                                   "float scale(const float *src, int srcSize, const float *factors) {\n"
                                   "  return srcSize ? src[0] * factors[0] : 0; }\n"
                                   "int pick(int n, const char *name, const double *values) {\n"
                                   "  return name[0] + (int)values[n - 1]; }\n",
                                   false);
  const model::Callable *weigh = named(p, "weigh");
  ASSERT_TRUE(weigh);
  EXPECT_EQ(weigh->params[0].role, model::ParamRole::Length);
  EXPECT_EQ(weigh->params[0].pairedWith, 1u) << "the length stays paired with the first array";
  EXPECT_EQ(weigh->params[1].role, model::ParamRole::Buffer);
  EXPECT_EQ(weigh->params[2].role, model::ParamRole::Buffer);
  EXPECT_EQ(weigh->params[2].pairedWith, 0u);
  EXPECT_EQ(weigh->params[3].role, model::ParamRole::Buffer) << "an int array of n is harmless where one int is read";

  const model::Callable *scale = named(p, "scale");
  ASSERT_TRUE(scale);
  EXPECT_EQ(scale->params[0].role, model::ParamRole::Buffer);
  EXPECT_EQ(scale->params[2].role, model::ParamRole::None) << "srcSize is src's";

  const model::Callable *pick = named(p, "pick");
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->params[1].role, model::ParamRole::Buffer);
  EXPECT_EQ(pick->params[2].role, model::ParamRole::None) << "a length of bytes is no count of elements";
}

// libexif's `/*! \internal */ void exif_array_set_byte_order(...)`.
TEST(DeclarationRules, ADeclarationDocumentedAsInternalIsTheLibrarysInside) {
  const model::Program p = analyzeOneFile("mosaic-doc-internal",
                                   "/*! Sums. */\nint api_sum(int a, int b);\n"
                                   "/*! \\internal */\nint impl_twice(int a);\n"
                                   "/** @internal Not for callers. */\nint impl_half(int a);\n",
                                   "int impl_twice(int a) { return 2 * a; }\nint impl_half(int a) { return a / 2; }\n"
                                   "int api_sum(int a, int b) { return impl_half(impl_twice(a)) + b; }\n",
                                   false);
  ASSERT_TRUE(named(p, "api_sum") && named(p, "impl_twice") && named(p, "impl_half"));
  EXPECT_FALSE(named(p, "api_sum")->internalApi);
  EXPECT_TRUE(named(p, "impl_twice")->internalApi);
  EXPECT_TRUE(named(p, "impl_half")->internalApi);
}
