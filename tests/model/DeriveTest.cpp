#include "mosaic/model/Derive.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::model;

namespace {

// A tiny model: record Box (owned) and Other (not), with callables that
// return Box by value, pointer, unique_ptr, and an int.
Program boxes() {
  Program p;
  p.unit = "/src/box.cpp";
  auto type = [&](TypeKind k, std::string s) {
    Type t{.id = static_cast<TypeId>(p.types.size()), .kind = k, .spelling = s, .canonical = s};
    p.types.push_back(t);
    return t.id;
  };
  const TypeId i = type(TypeKind::Integer, "int");
  const TypeId box = type(TypeKind::Record, "ns::Box");
  p.types[box].recordId = 0;
  const TypeId boxPtr = type(TypeKind::Pointer, "ns::Box *");
  p.types[boxPtr].pointee = box;
  const TypeId boxUnique = type(TypeKind::UniquePtr, "std::unique_ptr<ns::Box>");
  p.types[boxUnique].element = box;
  const TypeId other = type(TypeKind::Record, "Other");
  p.types[other].recordId = 1;

  Record b{.id = 0, .name = "ns::Box"};
  b.ownedByUnit = true;
  b.templateName = "ns::BoxT";
  Record o{.id = 1, .name = "Other"};
  p.records = {b, o};
  auto callable = [&](CallableKind k, std::string name, TypeId result, std::optional<RecordId> parent, Origin origin) {
    Callable c;
    c.id = static_cast<CallableId>(p.callables.size());
    c.kind = k;
    c.name = name;
    c.qualifiedName = parent ? p.records[*parent].name + "::" + name : name;
    c.result = result;
    c.parent = parent;
    c.origin = origin;
    if (parent) (k == CallableKind::Constructor ? p.records[*parent].constructors : p.records[*parent].methods).push_back(c.id);
    p.callables.push_back(c);
  };
  callable(CallableKind::Constructor, "Box", i, 0, Origin::Header);         // 0
  callable(CallableKind::Method, "size", i, 0, Origin::Header);             // 1: owned record's member
  callable(CallableKind::Function, "makeBox", box, std::nullopt, Origin::Unit);        // 2
  callable(CallableKind::Function, "newBox", boxPtr, std::nullopt, Origin::External);  // 3
  callable(CallableKind::StaticMethod, "create", boxUnique, 0, Origin::Unit);          // 4
  callable(CallableKind::Function, "makeOther", other, std::nullopt, Origin::Header);  // 5
  callable(CallableKind::Method, "get", i, 1, Origin::Header);                         // 6
  return p;
}

} // namespace

TEST(DeriveFactories, ValuePointerAndSmartPointerResultsButNotConstructors) {
  Program p = boxes();
  deriveFactories(p);
  EXPECT_EQ(p.records[0].factories, (std::vector<CallableId>{2, 3, 4}));
  EXPECT_EQ(p.records[1].factories, (std::vector<CallableId>{5}));
  deriveFactories(p); // idempotent
  EXPECT_EQ(p.records[0].factories.size(), 3u);
}

TEST(SelectTargets, DefaultIsWhatTheUnitOwns) {
  Program p = boxes();
  auto n = selectTargets(p, {});
  ASSERT_TRUE(n);
  // Defined in the unit (2, 4) and members of the record it owns (0, 1, 4).
  EXPECT_EQ(p.targets, (std::vector<CallableId>{0, 1, 2, 4}));
  EXPECT_EQ(*n, 4u);
}

TEST(SelectTargets, FunctionByNameOrQualifiedName) {
  Program p = boxes();
  ASSERT_TRUE(selectTargets(p, {.function = "makeBox"}));
  EXPECT_EQ(p.targets, (std::vector<CallableId>{2}));
  ASSERT_TRUE(selectTargets(p, {.function = "ns::Box::size"}));
  EXPECT_EQ(p.targets, (std::vector<CallableId>{1}));
}

TEST(SelectTargets, UnknownFunctionSuggestsClosestNames) {
  Program p = boxes();
  auto r = selectTargets(p, {.function = "makeBx"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
  EXPECT_EQ(r.error().message, "no function 'makeBx' in /src/box.cpp; did you mean makeBox?");
}

TEST(SelectTargets, ClassByQualifiedShortOrTemplateName) {
  for (const char *name : {"ns::Box", "Box", "BoxT", "ns::BoxT"}) {
    Program p = boxes();
    ASSERT_TRUE(selectTargets(p, {.className = name})) << name;
    EXPECT_EQ(p.targets, (std::vector<CallableId>{0, 1, 4})) << name;
  }
  Program p = boxes();
  auto r = selectTargets(p, {.className = "Othr"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no class 'Othr' in /src/box.cpp; did you mean Other?");
}

TEST(SelectTargets, FunctionAndClassTogetherIsAUsageError) {
  Program p = boxes();
  auto r = selectTargets(p, {.function = "makeBox", .className = "Box"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
}

TEST(ConcernsUnit, UnitFileMainHeaderOrOwnedRecord) {
  Program p = boxes();
  p.mainHeader = "/src/box.h";
  EXPECT_TRUE(concernsUnit(p, Skipped{"f", "function", "r", {"/src/box.cpp", 1, 2}, std::nullopt}));
  EXPECT_TRUE(concernsUnit(p, Skipped{"g", "function", "r", {"/src/box.h", 1, 2}, std::nullopt}));
  EXPECT_TRUE(concernsUnit(p, Skipped{"ns::Box::x", "method", "r", {"/src/other.h", 1, 2}, 0}));
  EXPECT_FALSE(concernsUnit(p, Skipped{"Other::y", "method", "r", {"/src/other.h", 1, 2}, 1}));
  EXPECT_FALSE(concernsUnit(p, Skipped{"h", "function", "r", {"/usr/include/x.h", 1, 2}, std::nullopt}));
}

TEST(HandleKindOf, TheParametersNameOrTheWordAfterTheMakersSharedPrefix) {
  // lcms2's cmsHANDLE makers: the library's prefix cms, then the kind.
  const std::vector<std::string> makers{"cmsIT8Alloc", "cmsIT8LoadFromFile", "cmsDictAlloc", "cmsDictDup",
                                        "cmsMD5alloc"};
  EXPECT_EQ(handleKindOf("cmsIT8GetSheetType", "hIT8", makers), "it8");
  EXPECT_EQ(handleKindOf("cmsMD5add", "Handle", makers), "md5");
  EXPECT_EQ(handleKindOf("cmsDictFree", "hDict", makers), "dict");
  // A Hungarian parameter names its kind where a maker has it.
  std::vector<std::string> withProfiles = makers;
  withProfiles.push_back("cmsOpenProfileFromFile");
  EXPECT_EQ(handleKindOf("cmsMD5computeID", "hProfile", withProfiles), "profile");
  // A word after the prefix that no maker has, or no word after it.
  EXPECT_EQ(handleKindOf("cmsGetEncodedCMMversion", "Handle", makers), "");
  EXPECT_EQ(handleKindOf("cmsIT8", "Handle", makers), "");
  // Makers that share no prefix, or one kind only, tell no kinds apart.
  EXPECT_EQ(handleKindOf("foo_read", "h", {"foo_new", "bar_new"}), "");
  EXPECT_EQ(handleKindOf("zip_source_free", "src", {"zip_source_buffer", "zip_source_file"}), "");
  EXPECT_EQ(handleKindOf("zip_source_free", "src", {"zip_source_buffer"}), "");
  EXPECT_EQ(handleKindOf("zip_source_file_stat", "src", {"zip_source_buffer", "zip_source_file"}), "");
}
