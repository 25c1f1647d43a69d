// The model of a C fixture (tests/fixtures/analysis/shapes.c), exactly.
#include "analysis/FixtureModel.h"

#include <set>

using namespace mosaic;
using namespace mosaic::model;
using namespace mosaic::test;

namespace {
const Program &shapes() { return fixtureModel("shapes.c"); }
} // namespace

TEST(ShapesModel, ParsesAsCWithTheProjectFlagsAdjusted) {
  const Program &p = shapes();
  EXPECT_EQ(p.language, "c");
  EXPECT_EQ(p.unit, fixturePath("shapes.c"));
  EXPECT_EQ(p.mainHeader, fixturePath("shapes.h"));
  EXPECT_TRUE(contains(p.notes, "dropped flag '-Werror' (warnings must not stop the analysis)"));
  EXPECT_TRUE(contains(p.notes, "dropped flag '-fvar-tracking-assignments' (not known to Clang 19)"));
}

TEST(ShapesModel, EveryFunctionOfTheUnitIncludingStaticOnes) {
  const Program &p = shapes();
  std::set<std::string> names, statics;
  for (const Callable &c : p.callables) {
    names.insert(c.qualifiedName);
    if (c.internalLinkage) statics.insert(c.name);
    EXPECT_EQ(c.kind, CallableKind::Function);
    EXPECT_EQ(c.origin, Origin::Unit) << c.name;
    EXPECT_TRUE(c.cLinkage) << c.name;
    // C symbols are the functions' names, static ones too.
    EXPECT_EQ(c.linkageNames, std::vector<std::string>{c.name});
  }
  EXPECT_EQ(names, (std::set<std::string>{"registry_new", "registry_free", "registry_add", "registry_visit",
                                          "point_parse", "point_format", "square_area", "count_kind", "check_magic",
                                          "is_name", "fill_number", "checksum", "sum_fixed", "swap_points",
                                          "move_point", "clamp", "parse_int", "copy_name", "main_entry_is_not_here",
                                          "log_message"}));
  EXPECT_TRUE(callable(p, "log_message").variadic);
  EXPECT_FALSE(callable(p, "clamp").variadic);
  EXPECT_EQ(statics, (std::set<std::string>{"clamp", "parse_int", "copy_name"}));
  EXPECT_EQ(p.targets.size(), p.callables.size());
}

TEST(ShapesModel, SkipsWhatItCannotCallWithAReason) {
  const Program &p = shapes();
  ASSERT_EQ(p.skipped.size(), 1u); // log_message(const char *fmt, ...) is variadic, and a target
  EXPECT_EQ(skippedReasons(p, "old_style"),
            (std::vector<std::string>{"declared without a prototype (K&R style): argument types unknown"}));
}

TEST(ShapesModel, TypedefChainsResolveToTheirCanonicalType) {
  const Program &p = shapes();
  const Type &t = p.type(callable(p, "count_kind").result);
  EXPECT_EQ(t.kind, TypeKind::Integer);
  EXPECT_EQ(t.spelling, "shape_count");
  EXPECT_EQ(t.canonical, "int");
  EXPECT_EQ(t.aliases, (std::vector<std::string>{"shape_count", "shape_int"}));
  EXPECT_EQ(t.bits, 32u);
  EXPECT_TRUE(t.isSigned);

  const Type &u8 = p.type(callable(p, "checksum").result);
  EXPECT_EQ(u8.kind, TypeKind::Integer);
  EXPECT_EQ(u8.spelling, "uint8_t");
  EXPECT_EQ(u8.bits, 8u);
  EXPECT_FALSE(u8.isSigned);
}

TEST(ShapesModel, EnumsWithTheirEnumerators) {
  const Program &p = shapes();
  const Enum &kind = enumNamed(p, "shape_kind");
  EXPECT_FALSE(kind.scoped);
  EXPECT_EQ(kind.enumerators,
            (std::vector<Enumerator>{{"SHAPE_CIRCLE", 0}, {"SHAPE_SQUARE", 5}, {"SHAPE_TRIANGLE", 6}}));
  // Declared in the header and used by no function: still modelled.
  EXPECT_EQ(enumNamed(p, "color").enumerators, (std::vector<Enumerator>{{"RED", -1}, {"GREEN", 0}, {"BLUE", 10}}));
  const Type &wanted = paramType(p, callable(p, "count_kind"), 2);
  EXPECT_EQ(wanted.kind, TypeKind::Enum);
  EXPECT_EQ(p.enums.at(*wanted.enumId).name, "shape_kind");
}

TEST(ShapesModel, StructsUnionsBitFieldsAndArrays) {
  const Program &p = shapes();
  const Record &sq = record(p, "square");
  EXPECT_EQ(sq.tag, RecordTag::Struct);
  EXPECT_TRUE(sq.aggregate);
  EXPECT_FALSE(sq.isCxx);
  ASSERT_EQ(sq.fields.size(), 4u);
  EXPECT_EQ(sq.fields[0].name, "corner");
  EXPECT_EQ(p.type(sq.fields[0].type).spelling, "struct point");
  EXPECT_EQ(p.type(sq.fields[1].type).kind, TypeKind::Floating);
  EXPECT_EQ(p.type(sq.fields[1].type).bits, 64u);
  EXPECT_EQ(sq.fields[2].bitWidth, 4u);
  const Type &name = p.type(sq.fields[3].type);
  EXPECT_EQ(name.kind, TypeKind::Array);
  EXPECT_EQ(name.length, 16u);
  EXPECT_EQ(p.type(*name.element).kind, TypeKind::Char);

  const Record &num = record(p, "number");
  EXPECT_EQ(num.tag, RecordTag::Union);
  ASSERT_EQ(num.fields.size(), 2u);
  EXPECT_EQ(num.fields[1].name, "d");
}

TEST(ShapesModel, OpaqueHandleAndItsFactory) {
  const Program &p = shapes();
  const Callable &make = callable(p, "registry_new");
  const Type &result = p.type(make.result);
  ASSERT_EQ(result.kind, TypeKind::Pointer);
  EXPECT_EQ(result.spelling, "registry *");
  const Type &rec = p.type(*result.pointee);
  ASSERT_EQ(rec.kind, TypeKind::Record);
  const Record &r = p.record(*rec.recordId);
  EXPECT_EQ(r.name, "registry");
  EXPECT_TRUE(r.ownedByUnit); // defined in shapes.c although declared opaque in shapes.h
  EXPECT_EQ(r.factories, (std::vector<CallableId>{make.id}));
  EXPECT_EQ(make.location.beginLine, 31u);
  EXPECT_EQ(make.location.endLine, 38u);
  EXPECT_EQ(make.location.file, fixturePath("shapes.c"));
}

TEST(ShapesModel, CallbacksAndUserData) {
  const Program &p = shapes();
  const Callable &visit = callable(p, "registry_visit");
  EXPECT_EQ(visit.params[1].role, ParamRole::Callback);
  const Type &cb = paramType(p, visit, 1);
  ASSERT_EQ(cb.kind, TypeKind::FunctionPointer);
  EXPECT_EQ(cb.spelling, "shape_visitor");
  ASSERT_TRUE(cb.signature);
  EXPECT_EQ(p.type(cb.signature->result).spelling, "int");
  ASSERT_EQ(cb.signature->params.size(), 2u);
  EXPECT_EQ(p.type(cb.signature->params[0]).spelling, "const struct point *");
  EXPECT_EQ(p.type(cb.signature->params[1]).spelling, "void *");
  EXPECT_EQ(visit.params[2].role, ParamRole::UserData);
}

TEST(ShapesModel, CStringsBuffersAndOutParameters) {
  const Program &p = shapes();
  const Callable &parse = callable(p, "point_parse");
  EXPECT_EQ(parse.params[0].role, ParamRole::CString);
  EXPECT_EQ(parse.params[1].role, ParamRole::Out);
  EXPECT_TRUE(parse.params[1].written);

  const Callable &format = callable(p, "point_format");
  EXPECT_EQ(format.params[0].role, ParamRole::None);
  EXPECT_EQ(format.params[1].role, ParamRole::Buffer);
  EXPECT_EQ(format.params[1].pairedWith, 2u);
  EXPECT_TRUE(format.params[1].written); // through snprintf
  EXPECT_EQ(format.params[2].role, ParamRole::Length);
  EXPECT_EQ(format.params[2].pairedWith, 1u);

  const Callable &sum = callable(p, "checksum");
  EXPECT_EQ(sum.params[0].role, ParamRole::Buffer);
  EXPECT_FALSE(sum.params[0].written);
  EXPECT_EQ(sum.params[1].role, ParamRole::Length);

  // Written through a pointer copy and through parse_int's own out-parameter.
  const Callable &parseInt = callable(p, "parse_int");
  EXPECT_EQ(parseInt.params[0].role, ParamRole::Out);
  EXPECT_EQ(paramType(p, parseInt, 0).spelling, "const char **");
  EXPECT_EQ(parseInt.params[1].role, ParamRole::Out);

  // A struct the callee reads and writes is an object it works on.
  const Callable &swap = callable(p, "swap_points");
  EXPECT_EQ(swap.params[0].role, ParamRole::None);
  EXPECT_TRUE(swap.params[0].written);
  EXPECT_EQ(callable(p, "move_point").params[0].role, ParamRole::None);
  EXPECT_TRUE(callable(p, "move_point").params[0].written);
  EXPECT_EQ(callable(p, "fill_number").params[0].role, ParamRole::Out);

  const Callable &copy = callable(p, "copy_name");
  EXPECT_EQ(copy.params[0].role, ParamRole::CString);
  EXPECT_TRUE(copy.params[0].written); // strcpy's destination
  EXPECT_FALSE(copy.params[1].written);

  // Top-level const of a parameter is dropped; the array decays.
  EXPECT_EQ(paramType(p, callable(p, "sum_fixed"), 0).spelling, "const int *");
}

TEST(ShapesModel, ConstantsFromLiteralsAndFoldedMacros) {
  const Program &p = shapes();
  const Constants &magic = callable(p, "check_magic").constants;
  EXPECT_EQ(magic.integers, (std::vector<std::int64_t>{0xDEADBEEF, 1, 42, 2, 3, -7, 7}));
  EXPECT_EQ(magic.chars, (std::vector<std::int64_t>{'x'}));
  EXPECT_EQ(callable(p, "is_name").constants.strings, (std::vector<std::string>{"magic"}));
  const Constants &area = callable(p, "square_area").constants;
  EXPECT_EQ(area.integers, (std::vector<std::int64_t>{16, 1, 4})); // SHAPE_FLAG_BIG = (1 << 4)
  EXPECT_EQ(area.floats, (std::vector<double>{2.5}));
  // assert() in move_point contributes nothing: its text comes from a system header.
  EXPECT_TRUE(callable(p, "move_point").constants.empty());
  EXPECT_EQ(callable(p, "point_format").constants.strings, (std::vector<std::string>{"(%d, %d)"}));
}

TEST(IncludedSourceModel, WhatASourceFileTheUnitIncludesDeclaresIsTheUnitsOwn) {
  // blend.c includes blend_core.c (lzo1x_9x.c's lzo_swd.ch): its struct is
  // declared in no header a test includes, so a test cannot name even a
  // pointer to it (a written test spelling `const blend_state *` did not
  // compile).
  auto p = analysis::analyzeUnit({MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) +
                                                                     "/tests/fixtures/search/blend.c"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_FALSE(record(*p, "blend_state").declaredOutsideUnit);
}
