// The model of a C++ fixture (tests/fixtures/analysis/inventory.cpp), exactly.
#include "analysis/FixtureModel.h"

#include <algorithm>
#include <set>

using namespace mosaic;
using namespace mosaic::model;
using namespace mosaic::test;

namespace {

const Program &inventory() { return fixtureModel("inventory.cpp"); }

std::set<std::string> signaturesOf(const Program &p, const std::vector<CallableId> &ids) {
  std::set<std::string> out;
  for (CallableId id : ids) out.insert(p.callable(id).signature);
  return out;
}

} // namespace

TEST(InventoryModel, OverloadedConstructorsIncludingImplicitOnes) {
  const Program &p = inventory();
  EXPECT_EQ(p.language, "c++");
  const Record &item = record(p, "shop::Item");
  EXPECT_EQ(signaturesOf(p, item.constructors),
            (std::set<std::string>{"shop::Item::Item()", "shop::Item::Item(std::string)",
                                   "shop::Item::Item(std::string, shop::Price, shop::Category)",
                                   "shop::Item::Item(const shop::Item &)", "shop::Item::Item(shop::Item &&)"}));
  const Callable &named = callable(p, "shop::Item::Item(std::string)");
  EXPECT_TRUE(named.isExplicit);
  EXPECT_EQ(named.origin, Origin::Unit);
  const Callable &full = callable(p, "shop::Item::Item(std::string, shop::Price, shop::Category)");
  EXPECT_FALSE(full.params[1].hasDefault);
  EXPECT_TRUE(full.params[2].hasDefault);
  const Callable &copy = callable(p, "shop::Item::Item(const shop::Item &)");
  EXPECT_TRUE(copy.isImplicit);
  EXPECT_TRUE(copy.isCopyConstructor);
  EXPECT_TRUE(item.defaultConstructible && item.copyConstructible && item.moveConstructible);
  EXPECT_FALSE(item.aggregate);
}

TEST(InventoryModel, MethodsConstStaticAndOperators) {
  const Program &p = inventory();
  const Record &item = record(p, "shop::Item");
  EXPECT_EQ(signaturesOf(p, item.methods),
            (std::set<std::string>{"shop::Item::name() const", "shop::Item::price() const",
                                   "shop::Item::setPrice(shop::Price)", "shop::Item::operator==(const shop::Item &) const",
                                   "shop::Item::operator<(const shop::Item &) const", "shop::Item::fromCode(int)"}));
  const Callable &name = callable(p, "shop::Item::name() const");
  EXPECT_EQ(name.kind, CallableKind::Method);
  EXPECT_TRUE(name.isConst);
  EXPECT_EQ(name.origin, Origin::Header); // defined inline in the class
  EXPECT_EQ(p.type(name.result).spelling, "const std::string &");
  EXPECT_EQ(callable(p, "shop::Item::fromCode(int)").kind, CallableKind::StaticMethod);
  const Callable &eq = callable(p, "shop::Item::operator==(const shop::Item &) const");
  EXPECT_EQ(eq.kind, CallableKind::Operator);
  EXPECT_EQ(eq.operatorSpelling, "==");
  EXPECT_EQ(callable(p, "shop::Inventory::operator[](std::size_t) const").operatorSpelling, "[]");
  EXPECT_EQ(callable(p, "shop::Inventory::operator()(int) const").operatorSpelling, "()");
}

TEST(InventoryModel, PublicAndPrivateDataMembers) {
  const Program &p = inventory();
  const Record &item = record(p, "shop::Item");
  ASSERT_EQ(item.fields.size(), 4u);
  EXPECT_EQ(item.fields[0].name, "tags");
  EXPECT_EQ(item.fields[0].access, Access::Public);
  const Type &tags = p.type(item.fields[0].type);
  EXPECT_EQ(tags.kind, TypeKind::Vector);
  EXPECT_EQ(p.type(*tags.element).kind, TypeKind::String);
  EXPECT_EQ(item.fields[1].name, "category");
  EXPECT_EQ(p.type(item.fields[1].type).kind, TypeKind::Enum);
  EXPECT_EQ(item.fields[2].access, Access::Private);
  const Record &price = record(p, "shop::Price");
  EXPECT_TRUE(price.aggregate);
  EXPECT_TRUE(price.ownedByUnit); // declared in inventory.h, the unit's own header
  EXPECT_EQ(p.mainHeader, fixturePath("inventory.h"));
}

TEST(InventoryModel, SkippedMembersSayWhy) {
  const Program &p = inventory();
  EXPECT_EQ(skippedReasons(p, "shop::Item::operator+"),
            (std::vector<std::string>{"not among the operators tests call (== != < <= > >= [] ())"}));
  EXPECT_EQ(skippedReasons(p, "shop::Item::operator bool"),
            (std::vector<std::string>{"conversion operators are not called by generated tests"}));
  EXPECT_EQ(skippedReasons(p, "shop::Item::recompute"), (std::vector<std::string>{"private member"}));
  EXPECT_EQ(skippedReasons(p, "shop::Inventory::Inventory"), (std::vector<std::string>{"deleted"}));
  EXPECT_EQ(skippedReasons(p, "shop::Inventory::clear"), (std::vector<std::string>{"deleted"}));
  EXPECT_EQ(skippedReasons(p, "shop::NeverUsed"), (std::vector<std::string>{"no instantiation of it in this unit"}));
  EXPECT_EQ(p.skipped.size(), 6u);
}

TEST(InventoryModel, AbstractBaseAndDerivedClass) {
  const Program &p = inventory();
  const Record &shelf = record(p, "shop::Shelf");
  EXPECT_TRUE(shelf.abstract);
  EXPECT_TRUE(shelf.polymorphic);
  EXPECT_TRUE(shelf.constructors.empty());
  // What a stub subclass a test derives overrides (Op::Subclass).
  ASSERT_EQ(shelf.pureVirtuals.size(), 1u);
  EXPECT_EQ(shelf.pureVirtuals[0].name, "capacity");
  EXPECT_TRUE(shelf.pureVirtuals[0].isConst);
  EXPECT_TRUE(shelf.pureVirtuals[0].params.empty());
  EXPECT_EQ(p.type(shelf.pureVirtuals[0].result).canonical, "unsigned long");
  EXPECT_EQ(shelf.notSubclassable, "");
  const Record &small = record(p, "shop::SmallShelf");
  EXPECT_FALSE(small.abstract);
  EXPECT_EQ(small.bases, (std::vector<RecordId>{shelf.id}));
  EXPECT_TRUE(callable(p, "shop::SmallShelf::capacity() const").isVirtual);
}

TEST(InventoryModel, HowToObtainOne) {
  const Program &p = inventory();
  const Record &inv = record(p, "shop::Inventory");
  EXPECT_TRUE(inv.defaultConstructible);
  EXPECT_FALSE(inv.copyConstructible); // deleted copy constructor
  EXPECT_TRUE(inv.moveConstructible);
  EXPECT_EQ(signaturesOf(p, inv.factories), (std::set<std::string>{"shop::Inventory::create(std::size_t)"}));
  EXPECT_EQ(signaturesOf(p, record(p, "shop::Item").factories),
            (std::set<std::string>{"shop::Item::fromCode(int)", "shop::Inventory::take(std::size_t)",
                                   "shop::Inventory::shared(std::size_t) const"}));
}

TEST(InventoryModel, StandardLibraryTypes) {
  const Program &p = inventory();
  auto result = [&](const std::string &sig) -> const Type & { return p.type(callable(p, sig).result); };

  const Type &count = result("shop::Inventory::count(const std::string &) const");
  EXPECT_EQ(count.kind, TypeKind::Integer);
  EXPECT_EQ(count.aliases, (std::vector<std::string>{"shop::Count"}));
  EXPECT_FALSE(count.isSigned);

  const Type &found = result("shop::Inventory::find(const std::string &) const");
  EXPECT_EQ(found.kind, TypeKind::Optional);
  EXPECT_EQ(p.type(*found.element).spelling, "shop::Item");

  const Type &snap = result("shop::Inventory::snapshot() const");
  EXPECT_EQ(snap.kind, TypeKind::Map);
  EXPECT_EQ(p.type(*snap.key).kind, TypeKind::String);
  EXPECT_EQ(p.type(*snap.element).spelling, "shop::Count");

  const Type &pair = result("shop::Inventory::minMax() const");
  EXPECT_EQ(pair.kind, TypeKind::Pair);
  EXPECT_EQ(pair.elements.size(), 2u);

  const Type &tuple = result("shop::Inventory::summary() const");
  EXPECT_EQ(tuple.kind, TypeKind::Tuple);
  ASSERT_EQ(tuple.elements.size(), 3u);
  EXPECT_EQ(p.type(tuple.elements[1]).kind, TypeKind::String);
  EXPECT_EQ(p.type(tuple.elements[2]).kind, TypeKind::Floating);

  const Type &arr = result("shop::Inventory::firstThree() const");
  EXPECT_EQ(arr.kind, TypeKind::StdArray);
  EXPECT_EQ(arr.length, 3u);

  EXPECT_EQ(result("shop::Inventory::take(std::size_t)").kind, TypeKind::UniquePtr);
  const Type &shared = result("shop::Inventory::shared(std::size_t) const");
  EXPECT_EQ(shared.kind, TypeKind::SharedPtr);
  EXPECT_EQ(p.type(*shared.element).spelling, "const shop::Item");
  EXPECT_EQ(result("shop::histogram(const std::vector<std::string> &)").kind, TypeKind::UnorderedMap);

  const Callable &remove = callable(p, "shop::Inventory::remove(std::string_view, shop::Count *)");
  EXPECT_EQ(paramType(p, remove, 0).kind, TypeKind::StringView);
  EXPECT_EQ(remove.params[1].role, ParamRole::Out);
}

TEST(InventoryModel, CallbacksStdFunctionAndFunctionPointer) {
  const Program &p = inventory();
  const Callable &on = callable(p, "shop::Inventory::onChange(shop::Listener)");
  EXPECT_EQ(on.params[0].role, ParamRole::Callback);
  const Type &listener = paramType(p, on, 0);
  ASSERT_EQ(listener.kind, TypeKind::StdFunction);
  ASSERT_TRUE(listener.signature);
  ASSERT_EQ(listener.signature->params.size(), 2u);
  EXPECT_EQ(p.type(listener.signature->params[0]).spelling, "const std::string &");
  EXPECT_EQ(p.type(listener.signature->params[1]).spelling, "shop::Count");

  // Spelled fully qualified so that a test outside namespace shop compiles.
  const Callable &each = callable(p, "shop::Inventory::forEach(void (*)(const shop::Item &, void *), void *) const");
  EXPECT_EQ(paramType(p, each, 0).kind, TypeKind::FunctionPointer);
  EXPECT_EQ(each.params[0].role, ParamRole::Callback);
  EXPECT_EQ(each.params[1].role, ParamRole::UserData);
}

TEST(InventoryModel, ClassTemplatesThroughTheirInstantiations) {
  const Program &p = inventory();
  const Record &ints = record(p, "shop::Stack<int>");
  EXPECT_EQ(ints.templateName, "shop::Stack");
  EXPECT_EQ(ints.templateArgs, (std::vector<std::string>{"int"}));
  EXPECT_TRUE(ints.ownedByUnit); // Stack<T>::pop is defined in the unit
  const Record &strings = record(p, "shop::Stack<std::string>");
  EXPECT_EQ(strings.templateArgs, (std::vector<std::string>{"std::string"}));
  EXPECT_EQ(signaturesOf(p, strings.methods),
            (std::set<std::string>{"shop::Stack<std::string>::push(const std::string &)",
                                   "shop::Stack<std::string>::pop()", "shop::Stack<std::string>::empty() const",
                                   "shop::Stack<std::string>::size() const"}));
  EXPECT_EQ(callable(p, "shop::Stack<std::string>::pop()").origin, Origin::Unit);
  EXPECT_EQ(callable(p, "shop::Stack<std::string>::push(const std::string &)").origin, Origin::Header);

  // Named with its canonical arguments, as a test outside the namespace must.
  const Record &label = record(p, "shop::Label<shop::Item>");
  EXPECT_EQ(p.type(label.type).spelling, "shop::Label<shop::Item>");
  EXPECT_EQ(callable(p, "shop::Label<shop::Item>::width(const shop::Item &, int)").qualifiedName,
            "shop::Label<shop::Item>::width");

  const Callable &largest = callable(p, "shop::largest<int>(const std::vector<int> &)");
  EXPECT_TRUE(largest.isTemplateInstance);
  EXPECT_EQ(largest.qualifiedName, "shop::largest<int>");
}

TEST(InventoryModel, NamespacesAnonymousNamespacesAndStatics) {
  const Program &p = inventory();
  const Callable &secret = callable(p, "shop::secretHelper(int)");
  EXPECT_TRUE(secret.internalLinkage);
  EXPECT_EQ(secret.qualifiedName, "shop::secretHelper");
  EXPECT_TRUE(callable(p, "shop::ratio(double, double)").internalLinkage);
  EXPECT_FALSE(callable(p, "shop::describe(const shop::Item &)").internalLinkage);
  EXPECT_FALSE(callable(p, "shop::describe(const shop::Item &)").cLinkage);
  const Enum &cat = enumNamed(p, "shop::Category");
  EXPECT_TRUE(cat.scoped);
  EXPECT_EQ(cat.enumerators, (std::vector<Enumerator>{
                                 {"shop::Category::Food", 0}, {"shop::Category::Tools", 3}, {"shop::Category::Toys", 4}}));
}

TEST(InventoryModel, ConstantsOfMethods) {
  const Program &p = inventory();
  const Constants &c = callable(p, "shop::Item::fromCode(int)").constants;
  EXPECT_EQ(c.integers, (std::vector<std::int64_t>{404}));
  EXPECT_EQ(c.strings, (std::vector<std::string>{"no such item", "item-"}));
}

TEST(InventoryModel, ClassSelectionCoversEveryInstantiation) {
  Program p = inventory();
  auto n = selectTargets(p, {.className = "Stack"});
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 14u); // 3 constructors + 4 methods, for int and for std::string
}

TEST(HeaderNames, AHeaderNamedDotHPlusPlusIsTheUnitsMainHeaderAndIncluded) {
  // libconfig's libconfigcpp.c++ and libconfig.h++: a test that did not
  // include it could name none of the unit's classes.
  const Program &p = fixtureModel("dial.c++");
  EXPECT_EQ(p.mainHeader, fixturePath("dial.h++"));
  EXPECT_NE(std::find(p.unitIncludes.begin(), p.unitIncludes.end(), fixturePath("dial.h++")), p.unitIncludes.end());
}

TEST(TypeSpelling, ADecltypeResultIsTheTypeItResolvesTo) {
  // Not its expression, whose names do not resolve outside knob (fmt's
  // src/os.cc: the harness did not compile, so the unit had no tests).
  const Program &p = fixtureModel("dial.c++");
  EXPECT_EQ(p.type(callable(p, "knob::Dial::resting").result).spelling, "bool");
}

TEST(TypeSpelling, ASpecializationOverAliasTemplatesIsSpelledByItsCanonicalArguments) {
  // fmt's format.cc: `fmt::format_arg_store<..., fmt::remove_cvref_t<basic_string_view<char> &>>`,
  // the alias's argument unqualified, made the whole harness fail to compile.
  const Program &p = fixtureModel("dial.c++");
  const auto packOf = std::find_if(p.callables.begin(), p.callables.end(),
                                   [](const model::Callable &c) { return c.name == "packOf"; });
  ASSERT_NE(packOf, p.callables.end());
  EXPECT_EQ(p.type(packOf->result).spelling, "knob::Pack<int, knob::Pack<int>>");
  // The record itself, as the harness names it (fmt's format_string_checker<char,
  // error_handler, basic_string_view<char>, char[3]>).
  const auto record = std::find_if(p.records.begin(), p.records.end(), [](const model::Record &r) {
    return r.name.find("knob::Pack<int, ") == 0;
  });
  ASSERT_NE(record, p.records.end());
  EXPECT_EQ(record->name, "knob::Pack<int, knob::Pack<int>>");
}

TEST(TypeSpelling, ASpecializationOfAPrivateMemberTemplateCannotBeNamed) {
  // taglib's List<String>::ListPrivate<String> *, a private field's type:
  // named in the harness's helpers, it made the whole harness fail.
  const Program &p = fixtureModel("dial.c++");
  const auto ring = std::find_if(p.records.begin(), p.records.end(),
                                 [](const model::Record &r) { return r.name == "knob::Ring<int>"; });
  ASSERT_NE(ring, p.records.end());
  ASSERT_EQ(ring->fields.size(), 1u);
  const model::Type &d = p.type(p.type(ring->fields[0].type).value);
  const model::Type &node = p.type(p.type(*d.pointee).value);
  EXPECT_EQ(node.kind, model::TypeKind::Unsupported) << node.spelling;
  EXPECT_NE(node.unsupportedReason.find("private section"), std::string::npos) << node.unsupportedReason;
}

TEST(TypeSpelling, AnAggregateWhoseDefaultConstructorIsDeletedIsNotDefaultConstructible) {
  // fmt's formatter<monostate>: the harness's `new T()` for a zeroed one
  // did not compile.
  const Program &p = fixtureModel("dial.c++");
  const auto muted = std::find_if(p.records.begin(), p.records.end(),
                                  [](const model::Record &r) { return r.name == "knob::Muted"; });
  ASSERT_NE(muted, p.records.end());
  EXPECT_TRUE(muted->aggregate);
  EXPECT_FALSE(muted->defaultConstructible);
}

TEST(TypeSpelling, AClassNestedInATemplateOverAPrivateClassCannotBeNamed) {
  // re2's nfa.cc: SparseArray<NFA::Thread *>::IndexValue, named in the
  // harness's helpers, made the whole harness fail to compile.
  const Program &p = fixtureModel("dial.c++");
  const auto reasons = skippedReasons(p, "knob::Dial::clicks");
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("knob::Dial::Click"), std::string::npos) << reasons[0];
  EXPECT_NE(reasons[0].find("private section"), std::string::npos) << reasons[0];
}

TEST(TypeSpelling, ACStructDefinedInsideAnotherIsScopedInCxxTestCode) {
  // lua's lgc.c: tests declared `struct NodeKey k`, an incomplete type in
  // C++, where the struct defined in union Node is Node::NodeKey.
  const Program &p = fixtureModel("slots.c");
  const model::Type &slot = p.type(*p.type(callable(p, "slot_clear").params.at(0).type).pointee);
  const model::Record &r = p.record(*p.type(slot.value).recordId);
  const model::Type &key = p.type(r.fields.at(0).type);
  EXPECT_EQ(key.spelling, "struct SlotKey"); // the harness is C
  EXPECT_EQ(key.cxxSpelling, "struct Slot::SlotKey");
  // A prototype's `struct SlotKey *` is, in C++, a pointer to another
  // (incomplete) struct at file scope: not scoped. A typedef's name is the
  // same in both languages.
  EXPECT_EQ(p.type(callable(p, "slot_key").params.at(0).type).cxxSpelling, "");
  EXPECT_EQ(p.type(callable(p, "slot_typed").params.at(0).type).cxxSpelling, "");
}

TEST(TypeSpelling, ADecayedArrayOfTheUnitsOwnTypedefIsSpelledInUnit) {
  // zstd_v02.c: `rankVal_t rankValOrigin` (U32[16][17]) decays to
  // `U32 (*)[17]`, and U32 is the unit's: tests spell `unsigned int (*)[17]`.
  const Program &p = fixtureModel("slots.c");
  const model::Type &rows = p.type(callable(p, "slot_rows").params.at(0).type);
  EXPECT_EQ(rows.spelling, "slot_u32 (*)[3]");
  EXPECT_TRUE(rows.spelledInUnit);
  EXPECT_EQ(rows.canonical, "unsigned int (*)[3]");
}

TEST(InventoryModel, LinkageNamesAreTheObjectCodesSymbols) {
  // What the pass's description names functions by: mangled, and one per
  // variant of a constructor (base and complete object).
  const Program &p = inventory();
  EXPECT_EQ(callable(p, "shop::Item::fromCode(int)").linkageNames, (std::vector<std::string>{"_ZN4shop4Item8fromCodeEi"}));
  EXPECT_EQ(callable(p, "shop::Item::Item()").linkageNames,
            (std::vector<std::string>{"_ZN4shop4ItemC2Ev", "_ZN4shop4ItemC1Ev"}));
  EXPECT_EQ(callable(p, "shop::Item::price() const").linkageNames,
            (std::vector<std::string>{"_ZNK4shop4Item5priceEv"}));
}

TEST(HeaderNames, ASingleHeaderLibrarysCodeBlockIsTheUnitsAndItsSwitchIsNotRepeated) {
  // wordbag.c: `#define WORDBAG_IMPLEMENTATION` then `#include "wordbag.h"`,
  // whose code that macro switches on.
  auto p = analysis::analyzeUnit(
      {MOSAIC_FIXTURE_SEARCH_DB_DIR, std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/wordbag.c"});
  ASSERT_TRUE(p) << p.error().message;
  const std::string header = std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/search/wordbag.h";
  ASSERT_EQ(p->unitBlocks.size(), 1u);
  EXPECT_EQ(p->unitBlocks[0].file, header);
  // A test includes the header, without the switch.
  EXPECT_NE(std::find(p->unitIncludes.begin(), p->unitIncludes.end(), header), p->unitIncludes.end());
  EXPECT_EQ(std::find(p->excludedHeaders.begin(), p->excludedHeaders.end(), header), p->excludedHeaders.end());
  for (const auto &c : p->configuration)
    EXPECT_EQ(c.definition.find("WORDBAG_IMPLEMENTATION"), std::string::npos) << c.definition;
  // What the block declares only the unit names; the API's type is the header's.
  for (const Record &r : p->records) {
    if (r.name == "wordbag_entry") EXPECT_FALSE(r.declaredOutsideUnit);
    if (r.name == "wordbag") EXPECT_TRUE(r.declaredOutsideUnit);
  }
  EXPECT_FALSE(callable(*p, "wordbag_is_letter").declaredInHeader);
  EXPECT_TRUE(callable(*p, "wordbag_add").declaredInHeader);
}
