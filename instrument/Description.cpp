// Control dependences, CFG diameters and source lines of the instrumented
// functions, written as JSON for the host.
#include "Description.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/GenericDomTreeConstruction.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <deque>
#include <map>
#include <set>

namespace mosaic::instrument {

/// Version of the description format; model/Description.h reads it.
constexpr int kDescriptionFormat = 2; // 2: mutants

namespace {

// Whether `bb` only reports a sanitizer's finding (UBSan's handler, a
// trap): the block a check's failing edge leads to.
bool reportsOnly(const llvm::BasicBlock &bb) {
  for (const llvm::Instruction &i : bb)
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
      if (const llvm::Function *callee = call->getCalledFunction()) {
        if (callee->getName().starts_with("__ubsan_handle_")) return true;
        const llvm::Intrinsic::ID id = callee->getIntrinsicID();
        if (id == llvm::Intrinsic::ubsantrap || id == llvm::Intrinsic::trap) return true;
      }
  return false;
}

// The edges a run leaves only when it fails: a sanitizer's check to its
// report (clang marks the check !nosanitize), a call's unwinding
// (invoke's unwind edge). Control dependences are of the program's normal
// flow: were these edges counted, every block past a UBSan check or a C++
// call that may throw would stop post-dominating what came before, and
// depend on nothing or on the wrong decision (json-c's _json_c_strerror
// under UBSan: 13 of line 101's 15 blocks depended on nothing, the other
// two on a loop's exit they always follow).
std::vector<llvm::cfg::Update<llvm::BasicBlock *>> failureEdges(llvm::Function &f) {
  std::vector<llvm::cfg::Update<llvm::BasicBlock *>> edges;
  for (llvm::BasicBlock &bb : f) {
    llvm::Instruction *t = bb.getTerminator();
    if (auto *invoke = llvm::dyn_cast_or_null<llvm::InvokeInst>(t)) {
      if (invoke->getNormalDest() != invoke->getUnwindDest())
        edges.push_back({llvm::cfg::UpdateKind::Delete, &bb, invoke->getUnwindDest()});
      continue;
    }
    if (!t || t->getNumSuccessors() < 2 || !t->hasMetadata(llvm::LLVMContext::MD_nosanitize)) continue;
    std::set<llvm::BasicBlock *> reports;
    for (llvm::BasicBlock *succ : llvm::successors(&bb))
      if (reportsOnly(*succ)) reports.insert(succ);
    if (reports.size() == t->getNumSuccessors()) continue; // no way on: keep it as it is
    for (llvm::BasicBlock *r : reports) edges.push_back({llvm::cfg::UpdateKind::Delete, &bb, r});
  }
  return edges;
}

// Block -> the branch sides it is control dependent on (Ferrante, Ottenstein
// and Warren 1987): for each edge A->S taken through side s, every block on
// the post-dominator tree path from S up to (not including) ipdom(A)
// depends on s. The post-dominator tree is of the CFG without its failure
// edges: a view of it (GraphDiff) that the tree is built from scratch on.
// (PostDominatorTree::recalculate(F, updates) would not do: building from
// scratch, LLVM 19 ignores a view given without its post-view.)
// A post-dominator tree whose function is set without building it
// (recalculate would, and the view's build would then be a second one).
struct PostDomTreeOf : llvm::PostDominatorTree {
  explicit PostDomTreeOf(llvm::Function &f) { Parent = &f; }
};

std::map<const llvm::BasicBlock *, std::set<unsigned>> controlDependences(const FunctionLayout &fl) {
  using Tree = llvm::DomTreeBuilder::BBPostDomTree;
  PostDomTreeOf pdt(*fl.function);
  const std::vector<llvm::cfg::Update<llvm::BasicBlock *>> failures = failureEdges(*fl.function);
  if (failures.empty()) {
    llvm::DomTreeBuilder::SemiNCAInfo<Tree>::CalculateFromScratch(pdt, nullptr);
  } else {
    llvm::GraphDiff<llvm::BasicBlock *, /*InverseGraph=*/true> view(failures);
    llvm::DomTreeBuilder::SemiNCAInfo<Tree>::BatchUpdateInfo bui(view, &view);
    llvm::DomTreeBuilder::SemiNCAInfo<Tree>::CalculateFromScratch(pdt, &bui);
  }
  std::map<const llvm::BasicBlock *, std::set<unsigned>> deps;
  for (const BranchSites &b : fl.branches) {
    const llvm::BasicBlock *a = b.terminator->getParent();
    const llvm::DomTreeNode *aNode = pdt.getNode(a);
    const llvm::DomTreeNode *stop = aNode ? aNode->getIDom() : nullptr;
    for (unsigned i = 0; i < b.terminator->getNumSuccessors(); ++i) {
      const unsigned side = sideOfSuccessor(b, i);
      for (const llvm::DomTreeNode *n = pdt.getNode(b.terminator->getSuccessor(i)); n && n != stop; n = n->getIDom())
        if (n->getBlock()) deps[n->getBlock()].insert(side);
    }
  }
  return deps;
}

// The longest shortest path between two blocks (EvoSuite's CFG diameter,
// the approach level of a function that never ran).
unsigned diameter(const llvm::Function &f) {
  std::map<const llvm::BasicBlock *, unsigned> index;
  for (const llvm::BasicBlock &bb : f) index.emplace(&bb, index.size());
  std::vector<std::vector<unsigned>> succ(index.size());
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::BasicBlock *s : llvm::successors(&bb)) succ[index[&bb]].push_back(index[s]);
  unsigned best = 0;
  std::vector<int> dist(index.size());
  for (unsigned start = 0; start < index.size(); ++start) {
    std::fill(dist.begin(), dist.end(), -1);
    std::deque<unsigned> queue{start};
    dist[start] = 0;
    while (!queue.empty()) {
      const unsigned v = queue.front();
      queue.pop_front();
      best = std::max(best, static_cast<unsigned>(dist[v]));
      for (unsigned w : succ[v])
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue.push_back(w);
        }
    }
  }
  return best;
}

std::string fileOf(const llvm::DIScope *scope) {
  if (!scope || !scope->getFile()) return {};
  llvm::StringRef name = scope->getFilename(), dir = scope->getDirectory();
  if (name.starts_with("/") || dir.empty()) return name.str();
  return (dir + "/" + name).str();
}

} // namespace

bool writeDescription(const ModuleLayout &layout, const std::string &unit, const std::string &path) {
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec);
  if (ec) {
    llvm::errs() << "mosaic pass: cannot write " << path << ": " << ec.message() << "\n";
    return false;
  }
  llvm::json::OStream j(file);
  j.objectBegin();
  j.attribute("format", kDescriptionFormat);
  j.attribute("unit", unit);
  j.attribute("blocks", layout.blocks);
  j.attribute("sides", layout.sides);
  j.attribute("mutants", layout.mutants);
  j.attributeArray("functions", [&] {
    for (const FunctionLayout &fl : layout.functions) {
      const llvm::Function &f = *fl.function;
      const llvm::DISubprogram *sp = f.getSubprogram();
      const auto deps = controlDependences(fl);
      j.objectBegin();
      j.attribute("linkage_name", f.getName());
      j.attribute("name", sp ? sp->getName() : f.getName());
      j.attribute("file", fileOf(sp));
      j.attribute("line", sp ? sp->getLine() : 0);
      j.attribute("entry", fl.blockIds.lookup(&f.getEntryBlock()));
      j.attribute("diameter", diameter(f));
      j.attributeArray("blocks", [&] {
        for (const llvm::BasicBlock &bb : f) {
          std::set<unsigned> lines;
          for (const llvm::Instruction &i : bb)
            if (const llvm::DebugLoc &dl = i.getDebugLoc(); dl && dl.getLine() && !dl.getInlinedAt())
              lines.insert(dl.getLine());
          j.objectBegin();
          j.attribute("id", fl.blockIds.lookup(&bb));
          j.attributeArray("lines", [&] {
            for (unsigned l : lines) j.value(l);
          });
          j.attributeArray("succ", [&] {
            for (const llvm::BasicBlock *s : llvm::successors(&bb)) j.value(fl.blockIds.lookup(s));
          });
          j.attributeArray("deps", [&] {
            if (auto it = deps.find(&bb); it != deps.end())
              for (unsigned side : it->second) j.value(side);
          });
          j.objectEnd();
        }
      });
      j.attributeArray("branches", [&] {
        for (const BranchSites &b : fl.branches) {
          const llvm::DebugLoc &dl = b.terminator->getDebugLoc();
          j.objectBegin();
          j.attribute("block", fl.blockIds.lookup(b.terminator->getParent()));
          j.attribute("kind", llvm::isa<llvm::SwitchInst>(b.terminator) ? "switch" : "cond");
          j.attribute("line", dl ? dl.getLine() : 0);
          j.attribute("column", dl ? dl.getCol() : 0);
          j.attributeArray("sides", [&] {
            for (unsigned i = 0; i < b.terminator->getNumSuccessors(); ++i) {
              j.objectBegin();
              j.attribute("id", sideOfSuccessor(b, i));
              j.attribute("to", fl.blockIds.lookup(b.terminator->getSuccessor(i)));
              if (const auto *sw = llvm::dyn_cast<llvm::SwitchInst>(b.terminator)) {
                if (i == 0) {
                  j.attribute("default", true);
                } else if (const llvm::ConstantInt *v = std::next(sw->case_begin(), i - 1)->getCaseValue();
                           v->getBitWidth() <= 64) {
                  j.attribute("value", v->getSExtValue());
                }
              }
              j.objectEnd();
            }
          });
          j.objectEnd();
        }
      });
      j.attributeArray("mutants", [&] {
        for (const MutationSite &site : fl.mutations) {
          const llvm::DebugLoc &dl = site.instruction->getDebugLoc();
          for (size_t k = 0; k < site.replacements.size(); ++k) {
            j.objectBegin();
            j.attribute("id", site.first + k);
            j.attribute("block", fl.blockIds.lookup(site.instruction->getParent()));
            j.attribute("line", dl ? dl.getLine() : 0);
            j.attribute("column", dl ? dl.getCol() : 0);
            j.attribute("operator", mutationOperator(site.original));
            j.attribute("original", mutationSymbol(site.original));
            j.attribute("replacement", mutationSymbol(site.replacements[k]));
            j.attribute("subsuming", static_cast<bool>(site.subsuming[k]));
            j.objectEnd();
          }
        }
      });
      j.objectEnd();
    }
  });
  j.objectEnd();
  file << "\n";
  return true;
}

} // namespace mosaic::instrument
