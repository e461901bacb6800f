#pragma once
// A move-only `void()` callable that keeps small captures inline: the scheduler runs one per event, and the
// simulator's event lambdas (a coroutine handle, a pending call with its reply, a command on its way) fit in
// the buffer, so scheduling an event allocates nothing. Larger callables go to the heap, as std::function's do.
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace lockcheck::sim {

class Action {
 public:
  // Room for a reply in flight (a pending call and a Reply) wrapped by ClientProcess::schedule.
  static constexpr std::size_t kInlineBytes = 112;

  Action() = default;
  template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Action> && std::is_invocable_v<std::remove_cvref_t<F>&>)
  Action(F&& callable) {  // NOLINT(google-explicit-constructor): lambdas convert, as to std::function
    construct(std::forward<F>(callable));
  }
  Action(Action&& other) noexcept : ops_(other.ops_) {
    if (ops_ != nullptr) ops_->relocate(other.storage_, storage_);
    other.ops_ = nullptr;
  }
  Action& operator=(Action&& other) noexcept {
    if (this != &other) {
      reset();
      ops_ = std::exchange(other.ops_, nullptr);
      if (ops_ != nullptr) ops_->relocate(other.storage_, storage_);
    }
    return *this;
  }
  Action(const Action&) = delete;
  Action& operator=(const Action&) = delete;
  ~Action() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  void operator()() { ops_->invoke(storage_); }

  // Replaces what this holds with `callable`, built in place: the scheduler builds each event's action in
  // its slot, one move fewer than building an Action and moving it there (a move of an inline callable is
  // an indirect call, a move and a destructor).
  template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Action> && std::is_invocable_v<std::remove_cvref_t<F>&>)
  void emplace(F&& callable) {
    reset();
    construct(std::forward<F>(callable));
  }
  void reset() {
    if (ops_ != nullptr) std::exchange(ops_, nullptr)->destroy(storage_);
  }

 private:
  struct Ops {
    void (*invoke)(void* storage);
    // Move-constructs into `to` and destroys what `from` held.
    void (*relocate)(void* from, void* to);
    void (*destroy)(void* storage);
  };
  template <typename F>
  static constexpr Ops inline_ops{
      [](void* storage) { (*static_cast<F*>(storage))(); },
      [](void* from, void* to) {
        ::new (to) F(std::move(*static_cast<F*>(from)));
        static_cast<F*>(from)->~F();
      },
      [](void* storage) { static_cast<F*>(storage)->~F(); },
  };
  template <typename F>
  static constexpr Ops heap_ops{
      [](void* storage) { (**static_cast<F**>(storage))(); },
      [](void* from, void* to) { ::new (to) F*(*static_cast<F**>(from)); },
      [](void* storage) { delete *static_cast<F**>(storage); },
  };

  template <typename F>
  void construct(F&& callable) {
    using Stored = std::remove_cvref_t<F>;
    if constexpr (sizeof(Stored) <= kInlineBytes && alignof(Stored) <= alignof(std::max_align_t) &&
                  std::is_nothrow_move_constructible_v<Stored>) {
      ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(callable));
      ops_ = &inline_ops<Stored>;
    } else {
      ::new (static_cast<void*>(storage_)) Stored*(new Stored(std::forward<F>(callable)));
      ops_ = &heap_ops<Stored>;
    }
  }

  alignas(std::max_align_t) unsigned char storage_[kInlineBytes];
  const Ops* ops_ = nullptr;
};

}  // namespace lockcheck::sim
