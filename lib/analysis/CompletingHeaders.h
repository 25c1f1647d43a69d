// Project headers that complete what a unit only declares.
//
// A unit can use a class it never sees defined: yaml-cpp's emit.cpp takes
// `const YAML::Node &` through a header that only declares `class Node;`,
// and node.cpp sees YAML::Node's members declared in node.h while their
// inline definitions are in node/impl.h, which it never includes. A test
// cannot build such an argument, and a harness that calls such a member does
// not link. The front end looks for the project header that defines what is
// missing (a class definition, out-of-class member definitions), parses the
// unit again with it included first (`-include`), and keeps it when the parse
// succeeds and the header met what it was chosen for (FrontEnd.cpp).
#pragma once

#include "mosaic/model/Program.h"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mosaic::analysis {

/// What a unit's callables use but the unit does not define, as names a
/// header's text can be matched against (unqualified, template arguments
/// dropped).
struct Needs {
  /// Classes the unit's callables take or return by value or by reference
  /// while the unit only declares them (`Mark`).
  std::set<std::string> classes;
  /// Members declared, not defined, of the unit's classes and of the classes
  /// its callables take (`Node::IsDefined`, constructors as `Node::Node`).
  std::set<std::string> members;
  /// Tables of functions (model::hasFunctionField) the unit's callables
  /// take through a pointer while no function the unit sees fills one
  /// (an initialiser, model::defaultsFilled): yajl_lex.c's
  /// yajl_alloc_funcs, which only yajl_alloc.h's
  /// yajl_set_default_alloc_funcs fills. C and C++.
  std::set<std::string> initialised;
  /// Abstract classes the unit's callables take through a pointer or a
  /// reference while the unit sees no concrete class derived from them:
  /// muParser's ParserTokenReader takes a ParserBase *, whose concrete
  /// Parser only muParser.h, which muParserTokenReader.cpp does not
  /// include, defines. A stub subclass would leave what Parser's
  /// overrides set up (its character sets) empty.
  std::set<std::string> subclassed;
  bool empty() const { return classes.empty() && members.empty() && initialised.empty() && subclassed.empty(); }
  size_t size() const { return classes.size() + members.size() + initialised.size() + subclassed.size(); }
};

/// The needs of a parsed unit. Only records and members outside system
/// headers count: the standard library is complete where it is included.
Needs unitNeeds(const model::Program &program);

/// What a header's text defines, read with Clang's raw lexer (comments and
/// literals skipped, no preprocessing): class definitions (`class X {`,
/// `struct API X : Base {`) and out-of-class member definitions or
/// declarations (`X::f(`, `X<T>::f(`, `X::~X(`, `X::operator[](`); and the
/// headers it includes, as spelled (`yaml-cpp/node/detail/impl.h`); and
/// the types that a function named as an initialiser or a setter of
/// defaults takes through a non-const pointer (`void
/// yajl_set_default_alloc_funcs(yajl_alloc_funcs * yaf);`: yajl_alloc_funcs).
struct HeaderDefinitions {
  std::set<std::string> classes;
  std::set<std::string> members;
  std::set<std::string> initialises;
  /// The base classes of the classes it defines, unqualified (`class
  /// Parser : public ParserBase {`: ParserBase).
  std::set<std::string> bases;
  std::vector<std::string> includes;
};
HeaderDefinitions scanHeader(const std::string &text);

/// Bound of the project's headers read: a project tree, not a system (a
/// checked-out dependency under the root can be large; 4000 headers are
/// read in well under a second).
inline constexpr size_t kMaxHeaders = 4000;

/// The project's headers a completing header is looked for in, read once.
class HeaderIndex {
public:
  /// Every header (ModelBuilder.h isHeaderPath) under the command's include
  /// folders (-I, -iquote) and the unit's folder, as far as they lie under
  /// `root` (the project, ProjectSamples.h projectRoot); canonical, sorted,
  /// at most kMaxHeaders.
  HeaderIndex(const std::vector<std::string> &args, const std::string &directory, const std::string &unit,
              const std::string &root);

  /// The header (not in `skip`) that meets most of `needs`, with what it
  /// meets; nullopt when none meets any. Ties go to the first in path order.
  std::optional<std::string> best(const Needs &needs, const std::set<std::string> &skip, Needs &met) const;

  /// The headers (not in `skip`) that include `header`: where to look when
  /// `header` does not parse on its own (yaml-cpp's node/detail/impl.h is
  /// meant to be included through yaml.h).
  std::vector<std::string> includers(const std::string &header, const std::set<std::string> &skip) const;

private:
  std::vector<std::string> paths_;
  std::vector<HeaderDefinitions> defs_; ///< by index in paths_
};

} // namespace mosaic::analysis
