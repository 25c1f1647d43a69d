// Parameter roles (model::ParamRole): what a parameter means for input
// generation, from its type, its name and what the body does with it.
#pragma once

#include "mosaic/model/Program.h"

#include <clang/AST/Decl.h>

#include <map>
#include <set>
#include <vector>

namespace mosaic::analysis {

/// Which parameters a function writes through: `*p = v`, `p->f = v`,
/// `p[i] = v`, `r = v` for a reference, a non-const method called on it, or
/// passing it on to a function that writes through the matching parameter
/// (followed through the functions defined in the translation unit, and a
/// table of C library functions for the rest). Pointer copies inside the body
/// (`char *q = p + 1`) count as the parameter. Recursion is cut: a call that
/// is still being analysed counts as not writing.
class WriteAnalysis {
public:
  bool writesThrough(const clang::FunctionDecl *fn, unsigned index);
  /// Whether `fn` may read what parameter `index` points to (true when the
  /// body is unknown, or the parameter is passed on to another function).
  bool readsThrough(const clang::FunctionDecl *fn, unsigned index);

private:
  struct Facts {
    std::vector<bool> direct;
    std::vector<bool> read;
    // For each parameter: the (callee, argument index) it is passed on to.
    std::vector<std::vector<std::pair<const clang::FunctionDecl *, unsigned>>> passedTo;
  };
  const Facts &factsOf(const clang::FunctionDecl *fn);

  std::map<const clang::FunctionDecl *, Facts> facts_;
  std::set<const clang::FunctionDecl *> inProgress_;
};

/// Fills role, pairedWith and written of every parameter of `callable`,
/// whose parameters correspond one to one with those of `fn`.
void assignParamRoles(const clang::FunctionDecl &fn, model::Callable &callable, const model::Program &program,
                      WriteAnalysis &writes);

/// Pairs the fields of `record` that a caller fills as a buffer and its
/// length (model::Field::pairedWith): an object pointer field (not to a
/// record or function) and an integer field whose name reads as a length
/// (looksLikeLength, or a word `avail`), either right after it, or anywhere
/// when both names say the same thing once the pointer's words (ptr, buf,
/// data, next, ...) and the length's words (len, size, avail, ...) are
/// taken off (z_stream's next_in and avail_in: "in").
void pairFields(model::Record &record, const model::Program &program);

/// Whether a parameter name reads as the end of a buffer (`end`, `limit`,
/// `entityTextEnd`, `buf_end`, `pe`, ...). Exposed for tests.
bool looksLikeEnd(const std::string &name);

/// Whether a parameter name reads as the length of a buffer (`len`, `size`,
/// `nbytes`, `buffer_length`, ...). Exposed for tests.
bool looksLikeLength(const std::string &name);

} // namespace mosaic::analysis
