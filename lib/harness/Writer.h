// Shared state of one harness generation: the types it names, the helper
// functions it needs, and the text it writes. Internal to lib/harness.
#pragma once

#include "mosaic/harness/Codegen.h"

#include <optional>
#include <set>
#include <sstream>
#include <string>

namespace mosaic::harness {

class Writer {
public:
  Writer(const model::Program &program, const testcase::Catalog &catalog, const CodegenOptions &options);

  /// The whole translation unit.
  GeneratedHarness generate();

private:
  // Names. Every type the code mentions goes through a typedef
  // __mosaic_t<id>, so that no declarator syntax (function pointers,
  // arrays) is ever spliced.
  std::string t(model::TypeId id);
  std::string ref(model::TypeId valueType);   ///< accessor: pointer to a variable as this value type
  std::string ptr(model::TypeId pointerType); ///< accessor: a pointer variable converted
  std::string observer(model::TypeId valueType);
  std::string deleter(model::TypeId valueType);
  bool observable(model::TypeId valueType) const;
  bool trivial(model::TypeId valueType) const; ///< scalar or pointer: storage by bytes, no constructor

  // Parts (CodegenCalls.cpp).
  void emitCall(const model::Callable &c);
  static bool hasReceiver(const model::Callable &c);
  std::string receiver(const model::Callable &c, std::ostringstream &decls, std::ostringstream &code);
  std::string argument(const model::Callable &c, size_t i, size_t offset, std::ostringstream &decls,
                       std::ostringstream &code);
  std::string callExpression(const model::Callable &c, const std::string &self, const std::vector<std::string> &args);
  std::optional<model::TypeId> performCall(const model::Callable &c, const std::string &call, std::ostringstream &decls,
                                           std::ostringstream &perform);
  std::string observations(const model::Callable &c, std::optional<model::TypeId> out);
  std::string callFunction(const model::Callable &c, size_t expected, const std::string &decls, const std::string &code,
                           const std::string &perform, const std::string &observe) const;
  void emitDispatcher();

  // Variadic functions, through libffi (CodegenVariadic.cpp).
  void emitVariadicCall(const model::Callable &c);
  void emitVarargHelper();
  std::string ffiType(model::TypeId id) const;
  std::string ffiCaller(const model::Callable &c);

  // Parts (CodegenValues.cpp).
  void emitBuilders();
  void emitPrimitive();
  void emitStrings();
  void emitFiles();
  void emitNull();
  void emitAggregate();
  void emitAddressOf();
  void emitEndOf();
  void emitArray();
  void emitFieldSet();
  void emitCallbacks();
  void emitSubclasses(); // (CodegenSubclass.cpp)
  void emitHelpers();
  std::string prelude() const;
  /// Weak stubs of what the unit declares and nothing defines (C).
  std::string undefinedStubs() const;
  std::string typedefs() const;

  std::string invalid() const { return "return __mosaic_unperformed(ctx);"; }

  const model::Program &p_;
  const testcase::Catalog &catalog_;
  CodegenOptions options_;
  const bool cxx_;

  std::set<model::TypeId> typedefs_, refs_, ptrs_, observers_, deleters_, references_;
  std::ostringstream helpers_; // accessors, observers, deleters, stubs (after the typedefs)
  std::ostringstream builders_;
  std::ostringstream calls_;
  std::ostringstream dispatch_;
  std::vector<model::CallableId> emittedCalls_;
  bool usesFfi_ = false; ///< a variadic call was emitted: <ffi.h> and __mosaic_vararg
  bool needObject_ = false;
};

} // namespace mosaic::harness
