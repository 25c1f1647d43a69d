// Error values and Expected<T>: how mosaic's libraries report failure.
//
// Libraries never print and exit; they return an Error that says what went
// wrong and what kind of failure it is, and the tool decides what to do.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace mosaic {

/// What kind of failure an Error is. The tool maps kinds to exit codes
/// (docs/CLI.md): Usage and Input are the user's to fix (exit 2), Internal is
/// mosaic's (exit 3).
enum class ErrorKind {
  Usage,    ///< flags that do not fit together, a name that matches nothing
  Input,    ///< a missing or unreadable file, a database without the unit, a parse error
  Internal, ///< a broken invariant or a failing dependency of mosaic itself
};

/// A failure: a one-line message plus optional detail (for instance the
/// compiler's diagnostics), shown below the message.
struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  std::string detail;

  static Error usage(std::string m) { return {ErrorKind::Usage, std::move(m), {}}; }
  static Error input(std::string m, std::string d = {}) { return {ErrorKind::Input, std::move(m), std::move(d)}; }
  static Error internal(std::string m) { return {ErrorKind::Internal, std::move(m), {}}; }
};

/// Either a T or an Error. Check with `if (!e)` before `*e`; reading the
/// wrong alternative is a programming error (asserted).
template <class T> class Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Error error) : v_(std::move(error)) {}

  explicit operator bool() const { return v_.index() == 0; }
  T &operator*() { assert(*this); return std::get<0>(v_); }
  const T &operator*() const { assert(*this); return std::get<0>(v_); }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }
  const Error &error() const { assert(!*this); return std::get<1>(v_); }
  Error takeError() { assert(!*this); return std::move(std::get<1>(v_)); }

private:
  std::variant<T, Error> v_;
};

} // namespace mosaic
