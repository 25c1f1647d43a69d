// Constant mining over a function body.
#include "ConstantMiner.h"

#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cstring>

namespace mosaic::analysis {

namespace {

template <class T> void addUnique(std::vector<T> &v, const T &x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// Floats compare by bits so that NaN and -0.0 are kept once each.
void addUniqueFloat(std::vector<double> &v, double x) {
  for (double y : v)
    if (std::memcmp(&x, &y, sizeof x) == 0) return;
  v.push_back(x);
}

std::int64_t toInt64(const llvm::APSInt &v) {
  if (v.getBitWidth() > 64) return v.trunc(64).getSExtValue();
  return v.isSigned() ? v.getSExtValue() : static_cast<std::int64_t>(v.getZExtValue());
}

class Miner : public clang::RecursiveASTVisitor<Miner> {
public:
  Miner(clang::ASTContext &ctx, model::Constants &out) : ctx_(ctx), sm_(ctx.getSourceManager()), out_(out) {}

  bool VisitIntegerLiteral(clang::IntegerLiteral *e) {
    if (fromUser(e)) addUnique(out_.integers, toInt64(llvm::APSInt(e->getValue(), e->getType()->isUnsignedIntegerType())));
    return true;
  }
  bool VisitFloatingLiteral(clang::FloatingLiteral *e) {
    if (fromUser(e)) addUniqueFloat(out_.floats, e->getValueAsApproximateDouble());
    return true;
  }
  bool VisitCharacterLiteral(clang::CharacterLiteral *e) {
    if (fromUser(e)) addUnique(out_.chars, static_cast<std::int64_t>(e->getValue()));
    return true;
  }
  bool VisitStringLiteral(clang::StringLiteral *e) {
    if (!fromUser(e) || !(e->isOrdinary() || e->isUTF8())) return true;
    if (e->getByteLength() <= kMaxMinedString) addUnique(out_.strings, e->getString().str());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *u) {
    if (u->getOpcode() != clang::UO_Minus || !fromUser(u)) return true;
    const clang::Expr *sub = u->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *i = llvm::dyn_cast<clang::IntegerLiteral>(sub))
      addUnique(out_.integers, -static_cast<std::int64_t>(i->getValue().getLimitedValue()));
    else if (const auto *f = llvm::dyn_cast<clang::FloatingLiteral>(sub))
      addUniqueFloat(out_.floats, -f->getValueAsApproximateDouble());
    return true;
  }
  // Operands of comparisons and arithmetic that fold to an integer although
  // they are not a literal: macros such as `(1 << 4)`, enumerators, sizeof.
  bool VisitBinaryOperator(clang::BinaryOperator *b) {
    foldOperand(b->getLHS());
    foldOperand(b->getRHS());
    return true;
  }
  bool VisitCaseStmt(clang::CaseStmt *c) {
    foldOperand(c->getLHS());
    if (c->getRHS()) foldOperand(c->getRHS());
    return true;
  }

private:
  bool fromUser(const clang::Expr *e) const {
    const clang::SourceLocation spelling = sm_.getSpellingLoc(e->getBeginLoc());
    if (spelling.isInvalid()) return false;
    return !sm_.isInSystemHeader(spelling) && !sm_.isWrittenInScratchSpace(spelling) &&
           !sm_.isWrittenInBuiltinFile(spelling) && !sm_.isWrittenInCommandLineFile(spelling);
  }

  void foldOperand(const clang::Expr *e) {
    if (!e || e->isValueDependent() || e->isTypeDependent() || !e->getType()->isIntegralOrEnumerationType()) return;
    const clang::Expr *bare = e->IgnoreParenImpCasts();
    if (llvm::isa<clang::IntegerLiteral, clang::CharacterLiteral>(bare)) return; // visited as literals
    if (!fromUser(e)) return;
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_, clang::Expr::SE_NoSideEffects) && r.Val.isInt())
      addUnique(out_.integers, toInt64(r.Val.getInt()));
  }

  clang::ASTContext &ctx_;
  const clang::SourceManager &sm_;
  model::Constants &out_;
};

} // namespace

model::Constants mineConstants(const clang::Stmt *body, clang::ASTContext &ctx) {
  model::Constants out;
  if (!body) return out;
  Miner miner(ctx, out);
  miner.TraverseStmt(const_cast<clang::Stmt *>(body));
  return out;
}

} // namespace mosaic::analysis
