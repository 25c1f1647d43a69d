// The units a crash's search tries: the deepest unit first, then each unit
// further up the stack with the frames down to the crash; frames end
// outside the project or where the trace recurses.
#include "mosaic/crash/Targets.h"

#include <gtest/gtest.h>

using namespace mosaic;
using namespace mosaic::crash;

namespace {

PlacedFrame at(Place place, const std::string &function, const std::string &file, unsigned line) {
  PlacedFrame p;
  p.frame.frame = {function, file, line, 0, false};
  p.place = place;
  p.file = place == Place::External ? "" : file;
  return p;
}

PlacedTrace placed(std::vector<PlacedFrame> frames) {
  PlacedTrace t;
  t.frames = std::move(frames);
  return t;
}

const StackTrace kSegv{TraceFormat::Sanitizer, {FailureClass::Signal, "SIGSEGV", ""}, {}};

} // namespace

TEST(TargetChoices, TheDeepestUnitFirstThenEachCallerUnitWithTheFramesBelowIt) {
  // strlen (libc) <- luaV_execute (lvm.c) <- luaD_call (ldo.c) <- lua_callk (lapi.c) <- main (outside)
  const PlacedTrace t = placed({at(Place::External, "strlen", "", 0), at(Place::Unit, "luaV_execute", "/p/lvm.c", 1334),
                                at(Place::Project, "luai_apicheck", "/p/lapi.h", 20),
                                at(Place::Unit, "luaD_call", "/p/ldo.c", 560), at(Place::Unit, "lua_callk", "/p/lapi.c", 1020),
                                at(Place::External, "main", "/tmp/poc.c", 9)});
  const std::vector<TargetChoice> c = targetChoices(kSegv, t, 3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].unit, "/p/lvm.c");
  EXPECT_EQ(c[0].target.deepest.line, 1334u);
  ASSERT_EQ(c[0].target.frames.size(), 2u); // its unit's frame and the header's above it
  EXPECT_EQ(c[0].traceFrames, 2u);
  EXPECT_EQ(c[1].unit, "/p/ldo.c");
  EXPECT_EQ(c[1].target.deepest.function, "luaD_call");
  EXPECT_EQ(c[1].target.frames.size(), 3u); // down to the crash: lvm.c's frames too
  EXPECT_EQ(c[2].unit, "/p/lapi.c");
  EXPECT_EQ(c[2].target.frames.size(), 4u);
  EXPECT_EQ(c[2].target.frames.front().function, "luaV_execute");
  EXPECT_EQ(c[2].target.kind.name, "SIGSEGV");
  // Each entered from the next unit's first frame; the last from outside.
  ASSERT_TRUE(c[0].target.caller && c[1].target.caller);
  EXPECT_EQ(c[0].target.caller->function, "luaD_call");
  EXPECT_EQ(c[1].target.caller->function, "lua_callk");
  EXPECT_FALSE(c[2].target.caller);
  // At most as many units as asked for; the cut one is the last's caller.
  const std::vector<TargetChoice> one = targetChoices(kSegv, t, 1);
  ASSERT_EQ(one.size(), 1u);
  ASSERT_TRUE(one[0].target.caller);
  EXPECT_EQ(one[0].target.caller->file, "/p/ldo.c");
}

TEST(TargetChoices, ARecursionEndsTheFramesAtItsFirstRepeat) {
  // A stack overflow: dup <- dup <- dup ... in one unit, then its caller unit.
  std::vector<PlacedFrame> frames{at(Place::Unit, "new_item", "/p/cJSON.c", 243)};
  for (int i = 0; i < 50; ++i) frames.push_back(at(Place::Unit, "cJSON_Duplicate", "/p/cJSON.c", 2740));
  frames.push_back(at(Place::Unit, "app_copy", "/p/app.c", 7));
  const std::vector<TargetChoice> c = targetChoices(kSegv, placed(frames), 3);
  ASSERT_EQ(c.size(), 1u); // the caller is past the cycle
  EXPECT_EQ(c[0].target.frames.size(), 2u);
  EXPECT_FALSE(c[0].target.caller);
  EXPECT_EQ(c[0].traceFrames, 2u);
}

TEST(TargetChoices, AUnitSeenAgainHigherUpBelongsToTheCallersChoice) {
  // a.c <- b.c <- a.c (a callback): two units, the second takes all three frames.
  const PlacedTrace t = placed({at(Place::Unit, "cb", "/p/a.c", 5), at(Place::Unit, "walk", "/p/b.c", 9),
                                at(Place::Unit, "run", "/p/a.c", 30)});
  const std::vector<TargetChoice> c = targetChoices(kSegv, t, 3);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].target.frames.size(), 3u);
  EXPECT_TRUE(targetChoices(kSegv, placed({at(Place::External, "main", "", 0)}), 3).empty());
}

// A test enters the trace at the innermost frame it can call: muparser's
// division by zero runs in the private static ParserInt::Div under
// ParserBase's private parse functions; the first a test may call is the
// inherited ParserBase::Eval (gdb prints it with its parameters and const).
TEST(EntryCallables, TheInnermostFrameATestCanCallWithItsOverloads) {
  model::Program p;
  for (const char *name : {"mu::ParserInt::ParserInt", "mu::ParserBase::Eval", "mu::ParserBase::Eval",
                           "mu::ParserBase::SetExpr", "mu::ParserBase::ParseString"}) {
    model::Callable c;
    c.id = static_cast<model::CallableId>(p.callables.size());
    c.qualifiedName = name;
    p.callables.push_back(c);
  }
  const PlacedTrace t = placed({at(Place::Unit, "mu::ParserInt::Div(double, double)", "/p/src/muParserInt.cpp", 50),
                                at(Place::Project, "mu::generic_callable_type::call_fun<2ul>", "/p/include/muParserToken.h", 81),
                                at(Place::Unit, "mu::ParserBase::ParseString() const", "/p/src/muParserBase.cpp", 1542),
                                at(Place::Unit, "mu::ParserBase::Eval() const", "/p/src/muParserBase.cpp", 1818),
                                at(Place::External, "main", "/tmp/poc.cpp", 7)});
  // ParseString is private: not offered. Eval's two overloads are.
  EXPECT_EQ(entryCallables(p, {0, 1, 2, 3}, t), (std::vector<model::CallableId>{1, 2}));
  // Offered, the innermost frame wins.
  EXPECT_EQ(entryCallables(p, {0, 1, 2, 3, 4}, t), (std::vector<model::CallableId>{4}));
  // Nothing past the first frame outside the project, nor without a unit frame.
  const PlacedTrace cut = placed({at(Place::Unit, "mu::ParserInt::Div(double, double)", "/p/src/muParserInt.cpp", 50),
                                  at(Place::External, "qsort", "", 0),
                                  at(Place::Unit, "mu::ParserBase::Eval() const", "/p/src/muParserBase.cpp", 1818)});
  EXPECT_TRUE(entryCallables(p, {0, 1, 2, 3}, cut).empty());
  EXPECT_TRUE(entryCallables(p, {0, 1, 2, 3}, placed({at(Place::External, "main", "/tmp/poc.cpp", 7)})).empty());
}
