// What a header's text is read to define (CompletingHeaders.h scanHeader):
// the classes and out-of-class members a completing header is chosen by.
#include "CompletingHeaders.h"

#include <gtest/gtest.h>

using namespace mosaic::analysis;

TEST(ScanHeader, FindsClassDefinitionsBehindExportMacrosAndBases) {
  const HeaderDefinitions d = scanHeader(R"(
    class Node;                               // a declaration only
    class YAML_CPP_API Mark { int pos; };
    struct Base {};
    struct Derived final : Base {};
    template <class T> struct Box { T value; };
    union Word { int i; float f; };
    // class InAComment { };
    const char *s = "class InAString {";
  )");
  EXPECT_EQ(d.classes, (std::set<std::string>{"Base", "Box", "Derived", "Mark", "Word"}));
}

TEST(ScanHeader, FindsOutOfClassMembersOfClassesAndTemplates) {
  const HeaderDefinitions d = scanHeader(R"(
    #include "yaml-cpp/node/node.h"
    #include <vector>
    inline Node::Node() : m_pNode(nullptr) {}
    inline Node::~Node() = default;
    inline bool Node::IsDefined() const { return true; }
    inline const Node Node::operator[](const Key &key) const { return get(key); }
    inline bool Node::operator()() const { return true; }
    template <typename T> T Stack<T>::top() const { return items_.back(); }
    int x = ns::value;                        // no parenthesis: not a member
  )");
  EXPECT_EQ(d.members, (std::set<std::string>{"Node::Node", "Node::~Node", "Node::IsDefined", "Node::operator[]",
                                              "Node::operator()", "Stack::top"}));
  EXPECT_EQ(d.includes, (std::vector<std::string>{"yaml-cpp/node/node.h", "vector"}));
}

TEST(ScanHeader, FindsWhatInitialisersAndSettersOfDefaultsTakeThroughAPointer) {
  const HeaderDefinitions d = scanHeader(R"(
    void yajl_set_default_alloc_funcs(yajl_alloc_funcs * yaf);
    int mp_init_size(mp_int *a, int size);
    void read_defaults(const options *o);     // const: read, not filled
    void load_default(options const *o);      // the same
    void apply(settings *s);                  // no initialiser's name
    int buffer_init(void *p, char *text);     // nothing but void and char
  )");
  EXPECT_EQ(d.initialises, (std::set<std::string>{"mp_int", "yajl_alloc_funcs"}));
}

TEST(ScanHeader, FindsTheBaseClassesOfTheClassesItDefines) {
  const HeaderDefinitions d = scanHeader(R"(
    class API_EXPORT_CXX Parser : public ParserBase { };
    struct Both final : protected ns::Left<int, Other>, virtual Right {};
    class Plain {};
    class Declared;
    int x = a ? b : c;
  )");
  EXPECT_EQ(d.bases, (std::set<std::string>{"Left", "ParserBase", "Right"}));
}
