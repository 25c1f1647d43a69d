// Runs Clang on one unit and hands the AST to the model builder.
#include "mosaic/analysis/FrontEnd.h"

#include "ApiMacros.h"
#include "CompileDatabase.h"
#include "CompletingHeaders.h"
#include "GlobalObjects.h"
#include "InstalledHeaders.h"
#include "ModelBuilder.h"
#include "ProjectSamples.h"

#include "mosaic/model/Derive.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <map>
#include <filesystem>
#include <set>

namespace mosaic::analysis {

namespace {

class IncludeRecorder;

class ModelConsumer : public clang::ASTConsumer {
public:
  ModelConsumer(clang::CompilerInstance &ci, const InstalledHeaders &installed, model::Program &program,
                const IncludeRecorder &includes)
      : ci_(ci), installed_(installed), program_(program), includes_(includes) {}

  // Called after Sema has finished the translation unit (pending template
  // instantiations included), with Sema still alive.
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) return;
    collectUnitBlocks(ctx); // before the model: what is in them is the unit's
    buildModel(ctx, ci_.getSema(), installed_, program_);
    collectUnitMacros();
    markMacroShadowed();
    const size_t macros = addApiMacros(ci_.getPreprocessor(), ci_.getSourceManager(), program_);
    if (macros + addGlobalObjects(ctx, program_)) model::deriveFactories(program_);
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

  // Callable::macroShadowed: free functions a function-like macro of the
  // same name still hides at the end of the unit (what a test sees too,
  // through the same headers).
  void markMacroShadowed() {
    clang::Preprocessor &pp = ci_.getPreprocessor();
    for (model::Callable &c : program_.callables) {
      if (c.parent || c.kind != model::CallableKind::Function) continue;
      const clang::MacroInfo *mi = pp.getMacroInfo(pp.getIdentifierInfo(c.name));
      c.macroShadowed = mi && mi->isFunctionLike();
    }
  }

  // Program::unitIncludes: the includes at file scope. A header included
  // inside a declaration is a fragment of it (expat's asciitab.h fills an
  // array initialiser), not something a test could include on its own.
  void collectUnitIncludes(clang::ASTContext &ctx);
  // Program::unitBlocks, the macros that switch them on (switches_), and
  // the headers a test cannot include (definingHeaders_).
  void collectUnitBlocks(clang::ASTContext &ctx);
  std::set<std::string> switches_, definingHeaders_;

  clang::CompilerInstance &ci_;
  const InstalledHeaders &installed_;
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

  void MacroDefined(const clang::Token &name, const clang::MacroDirective *md) override {
    if (!sm_.isWrittenInMainFile(name.getLocation())) return;
    const clang::MacroInfo *mi = md->getMacroInfo();
    const clang::CharSourceRange range =
        clang::CharSourceRange::getTokenRange(name.getLocation(), mi ? mi->getDefinitionEndLoc() : name.getLocation());
    const std::string text = clang::Lexer::getSourceText(range, sm_, lang_).str();
    macros.push_back({name.getLocation(), text, false});
  }

  void MacroUndefined(const clang::Token &name, const clang::MacroDefinition &, const clang::MacroDirective *) override {
    if (sm_.isWrittenInMainFile(name.getLocation()))
      macros.push_back({name.getLocation(), name.getIdentifierInfo()->getName().str(), true});
  }

  // The conditional blocks of headers and the unit file's macros their
  // conditions test (#ifdef X, #ifndef X, defined(X)): a single-header
  // library's code behind `#ifdef TINYOBJLOADER_IMPLEMENTATION`.
  void Ifdef(clang::SourceLocation at, const clang::Token &name, const clang::MacroDefinition &md) override {
    testing(name, md);
    open(at);
  }
  void Ifndef(clang::SourceLocation at, const clang::Token &name, const clang::MacroDefinition &md) override {
    testing(name, md);
    open(at);
  }
  void Defined(const clang::Token &name, const clang::MacroDefinition &md, clang::SourceRange) override {
    testing(name, md);
  }
  void If(clang::SourceLocation at, clang::SourceRange, ConditionValueKind) override { open(at); }
  void Elif(clang::SourceLocation, clang::SourceRange, ConditionValueKind, clang::SourceLocation) override {
    if (!open_.empty()) open_.back().macros.insert(pending_.begin(), pending_.end());
    pending_.clear();
  }
  void Endif(clang::SourceLocation at, clang::SourceLocation ifAt) override {
    while (!open_.empty()) {
      Block b = std::move(open_.back());
      open_.pop_back();
      if (b.begin != ifAt) continue;
      b.end = at;
      if (!b.macros.empty() && !sm_.isWrittenInMainFile(ifAt)) unitSwitched.push_back(std::move(b));
      break;
    }
  }

  /// Every include seen, with where its directive is.
  /// Every include seen, with where its directive is.
  std::vector<std::pair<clang::SourceLocation, std::string>> seen;
  /// The main file's #define and #undef directives, in order.
  struct Directive {
    clang::SourceLocation at;
    std::string text; ///< "NAME body" as written (continuation lines and all), or the name of an #undef
    bool undef;
  };
  std::vector<Directive> macros;

  /// Conditional blocks of headers whose conditions test macros the unit
  /// file defines (by name).
  struct Block {
    clang::SourceLocation begin, end;
    std::set<std::string> macros;
  };
  std::vector<Block> unitSwitched;

  void setLanguage(const clang::LangOptions &lang) { lang_ = lang; }

private:
  void testing(const clang::Token &name, const clang::MacroDefinition &md) {
    const clang::MacroInfo *mi = md.getMacroInfo();
    if (mi && sm_.isWrittenInMainFile(mi->getDefinitionLoc())) pending_.insert(name.getIdentifierInfo()->getName().str());
  }
  void open(clang::SourceLocation at) {
    open_.push_back({at, {}, std::move(pending_)});
    pending_.clear();
  }

  const clang::SourceManager &sm_;
  clang::LangOptions lang_;
  std::set<std::string> pending_; // tested by the directive being read
  std::vector<Block> open_;
};

namespace {

// The headers (canonical paths) that define a variable or a function of
// external linkage that is not inline: zlib's trees.h defines the tables
// _dist_code and _length_code, which only trees.c may include. A test that
// included one would define them a second time beside the unit.
void headersWithDefinitions(const clang::DeclContext *dc, const clang::SourceManager &sm,
                            std::map<std::string, std::vector<clang::SourceLocation>> &out) {
  for (const clang::Decl *d : dc->decls()) {
    if (const auto *inner = llvm::dyn_cast<clang::DeclContext>(d);
        inner && (llvm::isa<clang::NamespaceDecl>(d) || llvm::isa<clang::LinkageSpecDecl>(d))) {
      headersWithDefinitions(inner, sm, out);
      continue;
    }
    bool defines = false;
    if (const auto *v = llvm::dyn_cast<clang::VarDecl>(d))
      defines = v->isThisDeclarationADefinition() == clang::VarDecl::Definition && v->isExternallyVisible() &&
                !v->isInline() && !v->isStaticDataMember() && !v->getDescribedVarTemplate() &&
                !llvm::isa<clang::VarTemplateSpecializationDecl>(v);
    else if (const auto *f = llvm::dyn_cast<clang::FunctionDecl>(d))
      defines = f->doesThisDeclarationHaveABody() && f->isExternallyVisible() && !f->isInlined() &&
                !f->isTemplated() && !f->isTemplateInstantiation() && !llvm::isa<clang::CXXMethodDecl>(f);
    if (!defines) continue;
    const clang::SourceLocation at = sm.getExpansionLoc(d->getLocation());
    if (sm.isInMainFile(at) || sm.isInSystemHeader(at)) continue;
    if (const auto file = sm.getFileEntryRefForID(sm.getFileID(at)))
      out[sm.getFileManager().getCanonicalName(*file).str()].push_back(at);
  }
}

// The headers (canonical paths) whose declarations use a type or a value
// the unit file declared first: crc32.c typedefs z_word_t, then includes
// crc32.h, whose tables are of that type. A test cannot declare it first.
class UnitDependentHeaders : public clang::RecursiveASTVisitor<UnitDependentHeaders> {
public:
  UnitDependentHeaders(const clang::SourceManager &sm, std::set<std::string> &out) : sm_(sm), out_(out) {}

  void scan(const clang::TranslationUnitDecl *tu) {
    for (clang::Decl *d : tu->decls()) {
      const clang::SourceLocation at = sm_.getExpansionLoc(d->getLocation());
      if (at.isInvalid() || sm_.isInMainFile(at) || sm_.isInSystemHeader(at)) continue;
      const auto file = sm_.getFileEntryRefForID(sm_.getFileID(at));
      if (!file) continue;
      header_ = sm_.getFileManager().getCanonicalName(*file).str();
      if (out_.count(header_)) continue;
      TraverseDecl(d);
    }
  }

  bool VisitTypedefTypeLoc(clang::TypedefTypeLoc tl) { return use(tl.getTypedefNameDecl()); }
  bool VisitTagTypeLoc(clang::TagTypeLoc tl) { return use(tl.getDecl()); }
  bool VisitDeclRefExpr(clang::DeclRefExpr *e) { return use(e->getDecl()); }

private:
  // A declaration first made in the unit file marks the header (and ends
  // the walk of this declaration).
  bool use(const clang::Decl *d) {
    if (!d) return true;
    const clang::SourceLocation first = sm_.getExpansionLoc(d->getCanonicalDecl()->getLocation());
    if (first.isValid() && sm_.isInMainFile(first)) {
      out_.insert(header_);
      return false;
    }
    return true;
  }

  const clang::SourceManager &sm_;
  std::set<std::string> &out_;
  std::string header_;
};

} // namespace

void ModelConsumer::collectUnitBlocks(clang::ASTContext &ctx) {
  const clang::SourceManager &sm = ci_.getSourceManager();
  std::map<std::string, std::vector<clang::SourceLocation>> definitions;
  headersWithDefinitions(ctx.getTranslationUnitDecl(), sm, definitions);
  std::set<std::string> &defining = definingHeaders_;
  UnitDependentHeaders(sm, defining).scan(ctx.getTranslationUnitDecl());
  // A header whose every definition is in a block that a macro of the unit
  // file switches on (a single-header library: `#define
  // TINYOBJLOADER_IMPLEMENTATION` then `#include "tiny_obj_loader.h"`)
  // only declares without that macro: a test includes it, and the unit's
  // configuration that the tests repeat leaves the switch out.
  for (const auto &[path, at] : definitions) {
    std::set<std::string> used;
    const bool switched = !defining.count(path) && std::all_of(at.begin(), at.end(), [&](clang::SourceLocation d) {
      bool inside = false;
      for (const auto &b : includes_.unitSwitched)
        if (sm.isBeforeInTranslationUnit(b.begin, d) && sm.isBeforeInTranslationUnit(d, b.end)) {
          inside = true;
          used.insert(b.macros.begin(), b.macros.end());
        }
      return inside;
    });
    if (!switched) {
      defining.insert(path);
      continue;
    }
    switches_.insert(used.begin(), used.end());
    for (const auto &b : includes_.unitSwitched)
      if (const auto file = sm.getFileEntryRefForID(sm.getFileID(b.begin));
          file && sm.getFileManager().getCanonicalName(*file) == path)
        program_.unitBlocks.push_back({path, sm.getExpansionLineNumber(b.begin), sm.getExpansionLineNumber(b.end)});
  }
}

void ModelConsumer::collectUnitIncludes(clang::ASTContext &ctx) {
  const clang::SourceManager &sm = ci_.getSourceManager();
  std::vector<clang::SourceLocation> kept; // the includes that are unitIncludes, by where they are
  std::vector<clang::SourceRange> ranges;
  for (const clang::Decl *d : ctx.getTranslationUnitDecl()->decls())
    if (sm.isWrittenInMainFile(sm.getExpansionLoc(d->getBeginLoc()))) ranges.push_back(d->getSourceRange());
  const std::set<std::string> &defining = definingHeaders_;
  for (const auto &[at, path] : includes_.seen) {
    const bool inside = std::any_of(ranges.begin(), ranges.end(), [&](const clang::SourceRange &r) {
      return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(r.getBegin()), at) &&
             sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(r.getEnd()));
    });
    if (!inside && defining.count(path)) {
      if (std::find(program_.excludedHeaders.begin(), program_.excludedHeaders.end(), path) ==
          program_.excludedHeaders.end())
        program_.excludedHeaders.push_back(path);
      continue;
    }
    if (!inside && std::find(program_.unitIncludes.begin(), program_.unitIncludes.end(), path) == program_.unitIncludes.end()) {
      program_.unitIncludes.push_back(path);
      kept.push_back(at);
    }
  }
  // The configuration: macro directives before the last include kept, each
  // placed before the first include kept after it.
  for (const auto &m : includes_.macros) {
    const auto next = std::find_if(kept.begin(), kept.end(),
                                   [&](clang::SourceLocation at) { return sm.isBeforeInTranslationUnit(m.at, at); });
    if (next == kept.end()) break;
    if (switches_.count(m.text.substr(0, m.text.find_first_of(" (\t\\")))) continue;
    std::string definition = m.text;
    // One line: a continued definition's backslash-newlines become spaces.
    for (size_t at; (at = definition.find("\\\n")) != std::string::npos;) definition.replace(at, 2, " ");
    program_.configuration.push_back({definition, m.undef, static_cast<size_t>(next - kept.begin())});
  }
}

class ModelAction : public clang::ASTFrontendAction {
public:
  ModelAction(const InstalledHeaders &installed, model::Program &program) : installed_(installed), program_(program) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override {
    auto recorder = std::make_unique<IncludeRecorder>(ci.getSourceManager());
    recorder->setLanguage(ci.getLangOpts());
    const IncludeRecorder &includes = *recorder;
    ci.getPreprocessor().addPPCallbacks(std::move(recorder));
    return std::make_unique<ModelConsumer>(ci, installed_, program_, includes);
  }

private:
  const InstalledHeaders &installed_;
  model::Program &program_;
};

// The names a call of the unit is recognised by in another file: its own
// functions and methods, the inline ones of its main header, and the
// public methods its classes inherit from the project's bases (muParser's
// tests hand their expressions to a ParserInt through ParserBase's SetExpr;
// testcase/Inherited.h calls those methods on the unit's objects).
std::set<std::string> callNames(const model::Program &program) {
  std::set<std::string> names;
  auto add = [&names](const model::Callable &c) {
    if (!c.isImplicit && c.kind != model::CallableKind::Operator && c.name.size() >= 3) names.insert(c.name);
  };
  std::set<model::RecordId> classes;
  for (const model::Callable &c : program.callables) {
    const bool owned = c.origin == model::Origin::Unit || (c.origin == model::Origin::Header && c.declaredInMainHeader);
    if (!owned) continue;
    add(c);
    if (c.parent) classes.insert(*c.parent);
  }
  std::set<model::RecordId> seen;
  std::vector<model::RecordId> work(classes.begin(), classes.end());
  while (!work.empty()) {
    const model::RecordId r = work.back();
    work.pop_back();
    for (model::RecordId base : program.record(r).bases) {
      if (program.record(base).inSystemHeader || !seen.insert(base).second) continue;
      for (model::CallableId m : program.record(base).methods)
        if (program.callable(m).kind == model::CallableKind::Method) add(program.callable(m));
      work.push_back(base);
    }
  }
  return names;
}

// The keys of the unit's literals (model::integerLiteralKey & co).
std::set<std::string> literalKeys(const model::Program &program) {
  std::set<std::string> keys;
  for (const model::Callable &c : program.callables) {
    for (std::int64_t v : c.constants.integers) keys.insert(model::integerLiteralKey(v));
    for (std::int64_t v : c.constants.chars) keys.insert(model::integerLiteralKey(v));
    for (double v : c.constants.floats) keys.insert(model::floatLiteralKey(v));
    for (const std::string &v : c.constants.strings) keys.insert(model::stringLiteralKey(v));
  }
  return keys;
}

void addProjectSamples(model::Program &program, const std::vector<std::string> &databaseFiles) {
  const std::string root = projectRoot(program.unit, databaseFiles);
  ProjectSamples found = mineProjectSamples(root, program.unit, callNames(program), literalKeys(program));
  program.samples = std::move(found.samples);
  program.literalDocuments = std::move(found.literalDocuments);
  program.notes.push_back(std::to_string(program.samples.size()) + " input samples from the string literals of " +
                          std::to_string(found.filesCalling) + " of " + std::to_string(found.filesLexed) +
                          " project source files under '" + root + "' that call the unit");
}

// Parses the unit with `args` into a fresh model (language, unitIncludes,
// unitMacros and the AST's part; the caller fills in the rest).
// A quiet parse is a trial: Clang prints no "N errors generated".
Expected<model::Program> parseUnit(const UnitCommand &command, const InstalledHeaders &installed,
                                   std::vector<std::string> args, const std::string &unitArg, bool quiet = false) {
  if (quiet) args.insert(args.begin() + 1, "-fno-caret-diagnostics");
  model::Program program;
  program.unit = command.file;
  // Relative paths in the command (-I../include, the file itself) are
  // relative to the entry's directory, as for the project's compiler.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::createPhysicalFileSystem();
  if (fs->setCurrentWorkingDirectory(command.directory))
    return Error::input("the compile command's directory '" + command.directory + "' does not exist");
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions(new clang::DiagnosticOptions());
  diagOptions->ShowColors = false;
  clang::TextDiagnosticPrinter printer(diagStream, diagOptions.get());

  clang::tooling::ToolInvocation invocation(args, std::make_unique<ModelAction>(installed, program), files.get());
  invocation.setDiagnosticConsumer(&printer);
  const bool ok = invocation.run();
  diagStream.flush();
  if (!ok || printer.getNumErrors() > 0) {
    const unsigned n = printer.getNumErrors();
    return Error::input("cannot parse '" + unitArg + "'" +
                            (n ? " (" + std::to_string(n) + (n == 1 ? " error" : " errors") + ")" : std::string()),
                        diagnostics);
  }
  if (program.language.empty()) return Error::internal("the front end ran but built no model for '" + unitArg + "'");
  return program;
}

// Rounds of CompletingHeaders: a header that completes a class can declare
// members whose inline definitions are in another (yaml-cpp's emit.cpp needs
// node/node.h for class Node, then node/impl.h for its members); a third
// round is for one more such step. Each round is one more parse.
constexpr int kCompletingRounds = 3;

// A header that does not parse on its own (one meant to be included through
// another: yaml-cpp's node/detail/impl.h through yaml.h) is tried through
// the headers that include it, at most this many of them.
constexpr size_t kIncluderTries = 2;

// Adds the project headers that define what the unit only declares
// (CompletingHeaders.h), one per round, each kept only when the unit still
// parses with it and it met some of what it was chosen for. In C only
// tables of functions are looked for: C has no members, and a C struct
// the unit only declares is a handle.
void complete(const UnitCommand &command, const InstalledHeaders &installed, std::vector<std::string> &args,
              const std::string &unitArg, model::Program &program) {
  Needs needs = unitNeeds(program);
  if (needs.empty()) return;
  const HeaderIndex index(args, command.directory, command.file, projectRoot(command.file, command.projectFiles));
  std::set<std::string> tried;
  for (int round = 0; round < kCompletingRounds && !needs.empty(); ++round) {
    Needs met;
    const auto header = index.best(needs, tried, met);
    if (!header) return;
    std::vector<std::string> candidates{*header};
    for (const std::string &h : index.includers(*header, tried))
      if (candidates.size() <= kIncluderTries) candidates.push_back(h);
    for (const std::string &h : candidates) {
      tried.insert(h);
      std::vector<std::string> with = args;
      // After the compiler and the headers found before (before any `--`);
      // joined, one argument: CMake drops a repeated `-include` of a
      // target's options (the suite's unit library).
      with.insert(with.begin() + 1 + static_cast<std::ptrdiff_t>(program.completingHeaders.size()), "-include" + h);
      auto parsed = parseUnit(command, installed, with, unitArg, /*quiet=*/true);
      if (!parsed) continue;
      const Needs left = unitNeeds(*parsed);
      auto gone = [&](const std::set<std::string> &was, const std::set<std::string> &now) {
        return std::any_of(was.begin(), was.end(), [&](const std::string &n) { return !now.count(n); });
      };
      if (!gone(met.classes, left.classes) && !gone(met.members, left.members) &&
          !gone(met.initialised, left.initialised) && !gone(met.subclassed, left.subclassed))
        continue;
      std::vector<std::string> completing = std::move(program.completingHeaders);
      completing.push_back(h);
      program = std::move(*parsed);
      program.completingHeaders = std::move(completing);
      args = std::move(with);
      needs = left;
      break;
    }
  }
}

} // namespace

Expected<model::Program> analyzeUnit(const FrontEndOptions &options) {
  // A header is compiled only as part of the files that include it: it has
  // no command of its own, and the closest entry's would be a guess.
  if (isHeaderPath(options.unit))
    return Error::usage("'" + options.unit + "' is a header, not a unit: give the source file that includes it");
  auto command = findUnitCommand(options.buildDir, options.unit);
  if (!command) return command.takeError();

  std::vector<std::string> notes = command->notes;
  std::vector<std::string> args = adjustForClang(command->args, MOSAIC_CLANG_RESOURCE_DIR, notes);
  for (const auto &adjust : {clang::tooling::getClangStripOutputAdjuster(),
                             clang::tooling::getClangStripDependencyFileAdjuster(),
                             clang::tooling::getClangSyntaxOnlyAdjuster()})
    args = adjust(args, command->file);

  const InstalledHeaders installed =
      findInstalledHeaders(std::filesystem::path(command->database).parent_path().string());
  if (installed.known())
    notes.push_back("the project's interface: the " + std::to_string(installed.files.size() + installed.folders.size()) +
                    " headers and folders its build installs (read from " + installed.source +
                    "); what only other headers declare is the library's inside");
  auto parsed = parseUnit(*command, installed, args, options.unit);
  if (!parsed) return parsed.takeError();
  model::Program program = std::move(*parsed);
  complete(*command, installed, args, options.unit, program);
  for (const std::string &h : program.completingHeaders)
    notes.push_back("included '" + h + "' first: it defines or fills what the unit uses but only declares");
  program.notes.insert(program.notes.begin(), notes.begin(), notes.end());
  program.compileCommand = args;
  program.directory = command->directory;
  program.compileDatabase = command->database;
  if (options.projectSamples) addProjectSamples(program, command->projectFiles);
  return program;
}

} // namespace mosaic::analysis
