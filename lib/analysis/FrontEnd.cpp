// Runs Clang on one unit and hands the AST to the model builder.
#include "mosaic/analysis/FrontEnd.h"

#include "CompileDatabase.h"
#include "ModelBuilder.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>

namespace mosaic::analysis {

namespace {

class ModelConsumer : public clang::ASTConsumer {
public:
  ModelConsumer(clang::CompilerInstance &ci, model::Program &program) : ci_(ci), program_(program) {}

  // Called after Sema has finished the translation unit (pending template
  // instantiations included), with Sema still alive.
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) return;
    buildModel(ctx, ci_.getSema(), program_);
    collectUnitMacros();
    built_ = true;
  }
  bool built() const { return built_; }

private:
  // The macros the unit file itself defines and leaves defined at its end
  // (json-c's json_tokener.c: `#define state tok->stack[tok->depth].state`).
  void collectUnitMacros() {
    clang::Preprocessor &pp = ci_.getPreprocessor();
    const clang::SourceManager &sm = ci_.getSourceManager();
    for (const auto &[ident, state] : pp.macros(false)) {
      (void)state;
      const clang::MacroInfo *mi = pp.getMacroInfo(ident);
      if (mi && !mi->isBuiltinMacro() && sm.isWrittenInMainFile(mi->getDefinitionLoc()))
        program_.unitMacros.push_back(ident->getName().str());
    }
    std::sort(program_.unitMacros.begin(), program_.unitMacros.end());
  }

  clang::CompilerInstance &ci_;
  model::Program &program_;
  bool built_ = false;
};

// The project's headers the unit file includes itself, in order
// (Program::unitIncludes).
class IncludeRecorder : public clang::PPCallbacks {
public:
  IncludeRecorder(const clang::SourceManager &sm, model::Program &program) : sm_(sm), program_(program) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token &, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool, clang::SrcMgr::CharacteristicKind kind) override {
    if (!file || kind != clang::SrcMgr::C_User || !sm_.isWrittenInMainFile(hash)) return;
    const llvm::StringRef ext = llvm::sys::path::extension(file->getName());
    if (ext != ".h" && ext != ".hh" && ext != ".hpp" && ext != ".hxx" && ext != ".H") return; // not `#include "x.c"`
    program_.unitIncludes.push_back(sm_.getFileManager().getCanonicalName(*file).str());
  }

private:
  const clang::SourceManager &sm_;
  model::Program &program_;
};

class ModelAction : public clang::ASTFrontendAction {
public:
  explicit ModelAction(model::Program &program) : program_(program) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<IncludeRecorder>(ci.getSourceManager(), program_));
    return std::make_unique<ModelConsumer>(ci, program_);
  }

private:
  model::Program &program_;
};

} // namespace

Expected<model::Program> analyzeUnit(const FrontEndOptions &options) {
  auto command = findUnitCommand(options.buildDir, options.unit);
  if (!command) return command.takeError();

  model::Program program;
  program.unit = command->file;
  program.notes = command->notes;
  std::vector<std::string> args = adjustForClang(command->args, MOSAIC_CLANG_RESOURCE_DIR, program.notes);
  for (const auto &adjust : {clang::tooling::getClangStripOutputAdjuster(),
                             clang::tooling::getClangStripDependencyFileAdjuster(),
                             clang::tooling::getClangSyntaxOnlyAdjuster()})
    args = adjust(args, command->file);
  program.compileCommand = args;
  program.directory = command->directory;
  program.compileDatabase = command->database;

  // Relative paths in the command (-I../include, the file itself) are
  // relative to the entry's directory, as for the project's compiler.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::createPhysicalFileSystem();
  if (fs->setCurrentWorkingDirectory(command->directory))
    return Error::input("the compile command's directory '" + command->directory + "' does not exist");
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions(new clang::DiagnosticOptions());
  diagOptions->ShowColors = false;
  clang::TextDiagnosticPrinter printer(diagStream, diagOptions.get());

  clang::tooling::ToolInvocation invocation(args, std::make_unique<ModelAction>(program), files.get());
  invocation.setDiagnosticConsumer(&printer);
  const bool ok = invocation.run();
  diagStream.flush();
  if (!ok || printer.getNumErrors() > 0) {
    const unsigned n = printer.getNumErrors();
    return Error::input("cannot parse '" + options.unit + "'" +
                            (n ? " (" + std::to_string(n) + (n == 1 ? " error" : " errors") + ")" : std::string()),
                        diagnostics);
  }
  if (program.language.empty()) return Error::internal("the front end ran but built no model for '" + options.unit + "'");
  return program;
}

} // namespace mosaic::analysis
