// The wrapper translation unit: the unit compiled as its project compiles
// it, a named entry point (trampoline) for each function the tests cannot
// call by name, and the saving and restoring of the unit's state.
#include "SuiteParts.h"
#include "mosaic/support/Text.h"

#include <filesystem>

namespace mosaic::emit {

namespace fs = std::filesystem;
using model::TypeKind;

File writeWrapper(const SuiteContext &context, const std::set<model::CallableId> &trampolines,
                  const std::set<std::pair<model::CallableId, std::string>> &variadic) {
  const model::Program &p = context.program;
  const bool cxx = context.cxx;
  const BodyWriter &writer = context.writer;
  const std::string &restoreName = context.restoreName;
  Text wrapper;
  wrapper.line(std::string(cxx ? "//" : "/*") + " " + std::string(kGeneratedMarker) + ": compiles " + fs::path(p.unit).filename().string() +
               " with its project's flags and gives the tests a way to call " +
               (context.throughWrapper ? "the library (its headers are not C++: the tests include none)" : "its static functions") +
               "." + (cxx ? "" : " */"));
  wrapper.line("#define main mosaic_unit_main");
  // The unit by the path CMakeLists.txt gives it (relative to the
  // project's folder there: emit/Portable.h).
  wrapper.line("#include MOSAIC_UNIT_SOURCE /* " + fs::path(p.unit).filename().string() + " */");
  wrapper.line("#undef main");
  // The unit's private macros end with it (a `#define state ...` would
  // rewrite the trampolines' names below).
  for (const std::string &m : p.unitMacros) wrapper.line("#undef " + m);
  wrapper.line("");
  if (const auto undefined = context.catalog.undefinedDeclarations(); !undefined.empty()) {
    wrapper.line("/* Declared by the unit, defined nowhere the build compiles: weak stubs, so that");
    wrapper.line(" * the unit's code calling them links; a test that reaches one aborts. */");
    wrapper.line("#include <stdio.h>");
    wrapper.line("#include <stdlib.h>");
    wrapper.line("static void mosaic_undefined(void) {");
    wrapper.line("  fputs(\"mosaic: a function the unit declares is defined nowhere the build compiles\\n\", stderr);");
    wrapper.line("  abort();");
    wrapper.line("}");
    for (model::CallableId id : undefined) {
      const std::string &name = p.callable(id).name;
      wrapper.line("extern __typeof__(" + name + ") " + name + " __attribute__((weak, alias(\"mosaic_undefined\")));");
    }
    wrapper.line("");
  }
  // Each trampoline: a callable, and for a variadic one the kinds of the
  // extra arguments its calls pass.
  std::vector<std::pair<model::CallableId, std::optional<std::string>>> all;
  for (model::CallableId id : trampolines) all.emplace_back(id, std::nullopt);
  for (const auto &[id, kinds] : variadic) all.emplace_back(id, kinds);
  for (const auto &[id, kinds] : all) {
    const model::Callable &c = p.callable(id);
    std::string params, args;
    for (size_t k = 0; k < c.params.size(); ++k) {
      const model::Type &t = p.type(c.params[k].type);
      const std::string name = "a" + std::to_string(k);
      // An opaque pointer, a reference to one, or a callback over one
      // (BodyWriter::opaqueSpelling): the test's spelling, cast back to the
      // unit's for the call.
      const auto opaque = writer.opaqueSpelling(t.id);
      params += (k ? ", " : "") + std::string("__typeof__(") + opaque.value_or(t.spelling) + ") " + name;
      args += (k ? ", " : "") + (opaque ? "(__typeof__(" + t.spelling + "))" + name : name);
    }
    for (size_t k = 0; kinds && k < kinds->size(); ++k) {
      const std::string name = "x" + std::to_string(k);
      params += (params.empty() ? "" : ", ") + varargParameterType((*kinds)[k]) + " " + name;
      args += (args.empty() ? "" : ", ") + name;
    }
    if (params.empty() && !cxx) params = "void";
    const model::Type &r = p.type(c.result);
    // Only an opaque pointer is returned as the test spells it; a returned
    // reference or callback keeps the unit's spelling.
    const auto rs = writer.opaquePointer(r.id);
    const bool opaqueResult = rs.has_value();
    std::string callee = c.qualifiedName;
    const std::string anon = "(anonymous namespace)::";
    for (size_t at; (at = callee.find(anon)) != std::string::npos;) callee.erase(at, anon.size());
    if (c.macroShadowed) callee = "(" + callee + ")";
    wrapper.line(std::string(cxx ? "extern \"C\" " : "") + "__typeof__(" + (opaqueResult ? *rs : r.spelling) + ") " +
                 (kinds ? variadicTrampolineName(c, *kinds) : trampolineName(c)) + "(" + params + ") {");
    // A global object (WriteOptions::throughWrapper): its address.
    const std::string call = c.globalObject ? "&" + callee : callee + "(" + args + ")";
    wrapper.line(std::string("  ") + (r.kind == TypeKind::Void ? "" : "return ") + call + ";");
    wrapper.line("}");
  }
  if (!p.state.empty()) {
    // The initial bytes of each state variable, saved before any test runs:
    // in C by a constructor function, in C++ by a static object initialised
    // after the unit's own (same translation unit, later in it).
    wrapper.line(std::string(cxx ? "//" : "/*") + " The unit's state variables, saved at start-up and restored before each test." +
                 (cxx ? "" : " */"));
    wrapper.line("#include <string.h>");
    for (size_t k = 0; k < p.state.size(); ++k)
      wrapper.line("static unsigned char mosaic_saved_" + std::to_string(k) + "[sizeof(" + p.state[k] + ")];");
    wrapper.line(std::string(cxx ? "" : "__attribute__((constructor)) ") + "static void mosaic_save_state(void) {");
    for (size_t k = 0; k < p.state.size(); ++k)
      wrapper.line("  memcpy(mosaic_saved_" + std::to_string(k) + ", (const void *)&" + p.state[k] + ", sizeof(" + p.state[k] +
                   "));");
    wrapper.line("}");
    if (cxx) wrapper.line("static const bool mosaic_state_saved = (mosaic_save_state(), true);");
    wrapper.line(std::string(cxx ? "extern \"C\" " : "") + "void " + restoreName + "(void) {");
    for (size_t k = 0; k < p.state.size(); ++k)
      wrapper.line("  memcpy((void *)&" + p.state[k] + ", mosaic_saved_" + std::to_string(k) + ", sizeof(" + p.state[k] + "));");
    wrapper.line("}");
  }
  return {context.wrapperFile, wrapper.str()};
}

} // namespace mosaic::emit
