// Registration of mosaic's pass with clang's new pass manager
// (`clang-19 -fpass-plugin=libMosaicPass.so`). Nothing else lives here.
#include "Instrumenter.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

namespace {

struct MosaicPass : llvm::PassInfoMixin<MosaicPass> {
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
    return mosaic::instrument::instrumentModule(module) ? llvm::PreservedAnalyses::none()
                                                        : llvm::PreservedAnalyses::all();
  }
  // Without this the pass would be skipped for `optnone` functions at -O0.
  static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "mosaic", "1", [](llvm::PassBuilder &builder) {
            // At the start of the pipeline, at every optimisation level: ids and
            // the static description then follow the source's CFG, not what
            // the optimiser makes of it.
            builder.registerPipelineStartEPCallback(
                [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) { mpm.addPass(MosaicPass()); });
          }};
}
