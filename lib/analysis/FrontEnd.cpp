// Runs Clang on one unit and hands the AST to the model builder.
#include "mosaic/analysis/FrontEnd.h"

#include "CompileDatabase.h"
#include "ModelBuilder.h"
#include "ProjectSamples.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <set>

namespace mosaic::analysis {

namespace {

class IncludeRecorder;

class ModelConsumer : public clang::ASTConsumer {
public:
  ModelConsumer(clang::CompilerInstance &ci, model::Program &program, const IncludeRecorder &includes)
      : ci_(ci), program_(program), includes_(includes) {}

  // Called after Sema has finished the translation unit (pending template
  // instantiations included), with Sema still alive.
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) return;
    buildModel(ctx, ci_.getSema(), program_);
    collectUnitMacros();
    collectUnitIncludes(ctx);
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

  // Program::unitIncludes: the includes at file scope. A header included
  // inside a declaration is a fragment of it (expat's asciitab.h fills an
  // array initialiser), not something a test could include on its own.
  void collectUnitIncludes(clang::ASTContext &ctx);

  clang::CompilerInstance &ci_;
  model::Program &program_;
  const IncludeRecorder &includes_;
  bool built_ = false;
};

// The project's headers the unit file includes itself, in order
// (Program::unitIncludes once filtered by ModelConsumer).
class IncludeRecorder : public clang::PPCallbacks {
public:
  explicit IncludeRecorder(const clang::SourceManager &sm) : sm_(sm) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token &, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool, clang::SrcMgr::CharacteristicKind kind) override {
    if (!file || kind != clang::SrcMgr::C_User || !sm_.isWrittenInMainFile(hash)) return;
    if (!isHeaderPath(file->getName())) return; // not `#include "x.c"`
    seen.emplace_back(hash, sm_.getFileManager().getCanonicalName(*file).str());
  }

  /// Every include seen, with where its directive is.
  std::vector<std::pair<clang::SourceLocation, std::string>> seen;

private:
  const clang::SourceManager &sm_;
};

void ModelConsumer::collectUnitIncludes(clang::ASTContext &ctx) {
  const clang::SourceManager &sm = ci_.getSourceManager();
  std::vector<clang::SourceRange> ranges;
  for (const clang::Decl *d : ctx.getTranslationUnitDecl()->decls())
    if (sm.isWrittenInMainFile(sm.getExpansionLoc(d->getBeginLoc()))) ranges.push_back(d->getSourceRange());
  for (const auto &[at, path] : includes_.seen) {
    const bool inside = std::any_of(ranges.begin(), ranges.end(), [&](const clang::SourceRange &r) {
      return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(r.getBegin()), at) &&
             sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(r.getEnd()));
    });
    if (!inside && std::find(program_.unitIncludes.begin(), program_.unitIncludes.end(), path) == program_.unitIncludes.end())
      program_.unitIncludes.push_back(path);
  }
}

class ModelAction : public clang::ASTFrontendAction {
public:
  explicit ModelAction(model::Program &program) : program_(program) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override {
    auto recorder = std::make_unique<IncludeRecorder>(ci.getSourceManager());
    const IncludeRecorder &includes = *recorder;
    ci.getPreprocessor().addPPCallbacks(std::move(recorder));
    return std::make_unique<ModelConsumer>(ci, program_, includes);
  }

private:
  model::Program &program_;
};

// The names a call of the unit is recognised by in another file: its own
// functions and methods, and the inline ones of its main header.
std::set<std::string> callNames(const model::Program &program) {
  std::set<std::string> names;
  for (const model::Callable &c : program.callables) {
    const bool owned = c.origin == model::Origin::Unit || (c.origin == model::Origin::Header && c.declaredInMainHeader);
    if (!owned || c.isImplicit || c.kind == model::CallableKind::Operator || c.name.size() < 3) continue;
    names.insert(c.name);
  }
  return names;
}

void addProjectSamples(model::Program &program, const std::vector<std::string> &databaseFiles) {
  const std::string root = projectRoot(program.unit, databaseFiles);
  ProjectSamples found = mineProjectSamples(root, program.unit, callNames(program));
  program.samples = std::move(found.samples);
  program.notes.push_back(std::to_string(program.samples.size()) + " input samples from the string literals of " +
                          std::to_string(found.filesCalling) + " of " + std::to_string(found.filesLexed) +
                          " project source files under '" + root + "' that call the unit");
}

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
  if (options.projectSamples) addProjectSamples(program, command->projectFiles);
  return program;
}

} // namespace mosaic::analysis
