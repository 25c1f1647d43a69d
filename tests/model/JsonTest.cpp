#include "mosaic/model/Json.h"

#include <gtest/gtest.h>

using namespace mosaic::model;

namespace {

Program sampleProgram() {
  Program p;
  p.unit = "/src/unit.cpp";
  p.language = "c++";
  p.compileCommand = {"clang++", "-c", "unit.cpp"};
  p.notes = {"dropped flag '-Werror'"};
  Type i32{.id = 0, .kind = TypeKind::Integer, .spelling = "int32_t", .canonical = "int"};
  i32.aliases = {"int32_t", "__int32_t"};
  i32.bits = 32;
  i32.isSigned = true;
  Type ptr{.id = 1, .kind = TypeKind::Pointer, .spelling = "const ns::Box *", .canonical = "const ns::Box *"};
  ptr.pointee = 2;
  ptr.pointeeConst = true;
  Type box{.id = 2, .kind = TypeKind::Record, .spelling = "const ns::Box", .canonical = "const ns::Box"};
  box.recordId = 0;
  box.isConst = true;
  Type cb{.id = 3, .kind = TypeKind::FunctionPointer, .spelling = "int (*)(int32_t)", .canonical = "int (*)(int)"};
  cb.signature = Signature{0, {0}, false};
  Type bad{.id = 4, .kind = TypeKind::Unsupported, .spelling = "va_list", .canonical = "__va_list_tag *"};
  bad.unsupportedReason = "builtin type";
  Type arr{.id = 5, .kind = TypeKind::StdArray, .spelling = "std::array<int32_t, 4>", .canonical = "std::array<int, 4>"};
  arr.element = 0;
  arr.length = 4;
  Type map{.id = 6, .kind = TypeKind::Map, .spelling = "std::map<int32_t, int32_t>", .canonical = "x"};
  map.key = 0;
  map.element = 0;
  Type tup{.id = 7, .kind = TypeKind::Tuple, .spelling = "std::tuple<int32_t, int32_t>", .canonical = "y"};
  tup.elements = {0, 0};
  p.types = {i32, ptr, box, cb, bad, arr, map, tup};

  Record r;
  r.id = 0;
  r.name = "ns::Box";
  r.tag = RecordTag::Class;
  r.isCxx = true;
  r.ownedByUnit = true;
  r.copyConstructible = r.moveConstructible = r.defaultConstructible = true;
  r.templateName = "ns::BoxT";
  r.templateArgs = {"int"};
  r.fields = {Field{"width", 0, Access::Public, 3, false, 1u, false}, Field{"secret", 0, Access::Private, 0, true, 0u, true}};
  r.constructors = {0};
  r.methods = {1};
  r.factories = {1};
  r.bases = {0};
  r.location = {"/src/unit.h", 3, 9};
  Record shape = r;
  shape.id = 1;
  shape.name = "ns::Shape";
  shape.abstract = true;
  shape.pureVirtuals = {PureVirtual{"area", 0, {0, 1}, true, true, "&"}};
  shape.notSubclassable = "the class is final";
  p.records = {r, shape};

  Enum e;
  e.id = 0;
  e.name = "ns::Color";
  e.scoped = true;
  e.enumerators = {{"ns::Color::Red", -1}, {"ns::Color::Blue", 4}};
  p.enums = {e};

  Callable ctor;
  ctor.id = 0;
  ctor.kind = CallableKind::Constructor;
  ctor.name = "Box";
  ctor.qualifiedName = "ns::Box::Box";
  ctor.signature = "ns::Box::Box(int32_t)";
  ctor.parent = 0;
  ctor.params = {Param{"w", 0, ParamRole::None, std::nullopt, false, true, std::nullopt}};
  ctor.isExplicit = true;
  Callable m;
  m.id = 1;
  m.kind = CallableKind::StaticMethod;
  m.name = "make";
  m.qualifiedName = "ns::Box::make";
  m.signature = "ns::Box::make(const char *, int32_t)";
  m.parent = 0;
  m.result = 1;
  m.params = {Param{"buf", 1, ParamRole::Buffer, 1u, true, false, 16u}, Param{"len", 0, ParamRole::Length, 0u, false, false, std::nullopt}};
  m.origin = Origin::Header;
  m.isNoexcept = true;
  m.constants.integers = {-1, 42};
  m.constants.floats = {0.5};
  m.constants.chars = {'x'};
  m.constants.strings = {"magic", std::string("\xff\xfe\0z", 4)};
  m.location = {"/src/unit.cpp", 10, 20};
  p.callables = {ctor, m};
  p.skipped = {Skipped{"ns::Box::operator+", "operator", "not called", {"/src/unit.h", 5, 5}, 0}};
  p.targets = {0, 1};
  p.state = {"counter", "ns::last_error"};
  p.unitIncludes = {"/src/unit.h"};
  p.unitBlocks = {SourceRange{"/src/single.h", 40, 90}};
  p.configuration = {ConfigMacro{"UNIT_ADVANCED_API 1", false, 0}, ConfigMacro{"NDEBUG", true, 0}};
  return p;
}

} // namespace

TEST(ModelJson, RoundTripKeepsEveryField) {
  const Program p = sampleProgram();
  const std::string text = toJson(p);
  auto back = programFromJson(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(toJson(*back), text);
  EXPECT_EQ(back->callables[1].constants.strings[1], std::string("\xff\xfe\0z", 4));
  EXPECT_EQ(back->callables[1].params[0].pairedWith, 1u);
  EXPECT_EQ(back->types[3].signature, (Signature{0, {0}, false}));
  EXPECT_EQ(back->records[0].fields[0].bitWidth, 3u);
  EXPECT_EQ(back->records[1].pureVirtuals, p.records[1].pureVirtuals);
  EXPECT_EQ(back->records[1].notSubclassable, "the class is final");
  EXPECT_EQ(back->enums[0].enumerators[0], (Enumerator{"ns::Color::Red", -1}));
  EXPECT_EQ(back->skipped[0].parent, 0u);
  EXPECT_EQ(back->state, (std::vector<std::string>{"counter", "ns::last_error"}));
  ASSERT_EQ(back->configuration.size(), 2u);
  EXPECT_EQ(back->configuration[0].definition, "UNIT_ADVANCED_API 1");
  EXPECT_TRUE(back->configuration[1].undef);
  EXPECT_EQ(back->unitBlocks, p.unitBlocks);
  EXPECT_TRUE(back->inUnitCode({"/src/single.h", 50, 52}));
  EXPECT_FALSE(back->inUnitCode({"/src/single.h", 30, 41}));
}

TEST(ModelJson, WritesStableNames) {
  const std::string text = toJson(sampleProgram());
  EXPECT_NE(text.find("\"format\": 13"), std::string::npos);
  EXPECT_NE(text.find("\"kind\": \"static_method\""), std::string::npos);
  EXPECT_NE(text.find("\"role\": \"buffer\""), std::string::npos);
  EXPECT_NE(text.find("\"kind\": \"function_pointer\""), std::string::npos);
  // Bytes that are not UTF-8 are written as numbers.
  EXPECT_NE(text.find("\"bytes\""), std::string::npos);
}

TEST(ModelJson, RejectsOtherFormatVersions) {
  auto r = programFromJson(R"({"format": 99})");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("format 99"), std::string::npos);
  auto junk = programFromJson("not json");
  ASSERT_FALSE(junk);
  EXPECT_NE(junk.error().message.find("malformed"), std::string::npos);
}

TEST(ModelNames, EveryTypeKindRoundTrips) {
  for (int k = 0; k <= static_cast<int>(TypeKind::Unsupported); ++k) {
    const auto kind = static_cast<TypeKind>(k);
    EXPECT_EQ(typeKindFromString(toString(kind)), kind) << toString(kind);
  }
  EXPECT_FALSE(typeKindFromString("nonsense"));
}
