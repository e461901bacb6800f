#include "redis/command_table/command_table.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

// find_command runs for every command and every redis.call: an open-addressing index answers with one hash of
// the name and, nearly always, one comparison (a binary search made about eight).
constexpr std::size_t kMinSlotsPerCommand = 4;  // short probe runs

// FNV-1a of the name lowered, so a name in any case finds its slot.
std::uint32_t command_name_hash(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(ascii_lower(c))) * 16777619u;
  return hash;
}

// `name` in any case against a lower-case command name.
bool same_name(std::string_view lower, std::string_view name) {
  if (lower.size() != name.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (ascii_lower(name[i]) != lower[i]) return false;
  }
  return true;
}

// A KeySpec the key finders can walk: a range with a forward step (last -1 or -2 counts from the end) or none,
// a count only after a range that ends before it, and GETKEYS told to follow a count only where there is one.
bool readable(const KeySpec& keys) {
  const bool no_range = keys.first == 0 && keys.last == 0 && keys.step == 0;
  const bool range = keys.first > 0 && keys.step > 0 && (keys.last >= keys.first || keys.last == -1 || keys.last == -2);
  const bool counted = keys.count_at > 0;
  return (no_range || range) && keys.count_at >= 0 && (counted || keys.getkeys == CountedGetkeys::kStrict) &&
         (!counted || (keys.last >= 0 && keys.count_at > keys.last));
}

// Words as CommandSpec::key_access has them: R, W, RW or -, one space apart; empty for none.
bool access_words(std::string_view words) {
  // One word per round: at most words.size() rounds.
  for (std::size_t round = 0; round <= words.size() && !words.empty(); ++round) {
    const std::size_t space = words.find(' ');
    const std::string_view word = words.substr(0, space);
    if (word != "R" && word != "W" && word != "RW" && word != "-") return false;
    words = space == std::string_view::npos ? std::string_view{} : words.substr(space + 1);
    if (space != std::string_view::npos && words.empty()) return false;  // a trailing space
  }
  return true;
}

// The row's keys as the key finders and the ACL read them: a container's are its subcommands' (a key of its own
// would be read before them), each with one word of access.
std::string row_problem(const CommandSpec& row) {
  if (!readable(row.keys)) return "its KeySpec is not one";
  if (!access_words(row.key_access)) return "its key access is not words of R, W, RW or -";
  if (row.subcommands.empty()) return {};
  if (row.keys.first != 0 || row.keys.count_at != 0) return "a container with keys of its own";
  for (const SubcommandSpec& sub : row.subcommands) {
    const bool one_word = !sub.key_access.empty() && sub.key_access.find(' ') == std::string_view::npos;
    if ((sub.key_at > 0) != one_word || sub.key_at < 0 || !access_words(sub.key_access)) {
      return "subcommand '" + std::string(sub.name) + "' needs a key index and one access word, or neither";
    }
  }
  return {};
}

std::atomic<const CommandTable*> installed{nullptr};

const CommandTable& installed_table() {
  const CommandTable* table = installed.load(std::memory_order_acquire);
  if (table == nullptr) throw std::logic_error("no command table installed: build a Node first (NodeOptions::commands)");
  return *table;
}

}  // namespace

void CommandTable::add(CommandGroup family_group, std::initializer_list<CommandSpec> rows) {
  if (frozen_) throw std::logic_error("CommandTable::add after freeze()");
  if (family_group == CommandGroup::kOfFamily) throw std::logic_error("CommandTable::add: name the family's group");
  for (CommandSpec row : rows) {
    if (row.group == CommandGroup::kOfFamily) row.group = family_group;
    specs_.push_back(row);
  }
}

void CommandTable::freeze() {
  if (frozen_) return;
  std::sort(specs_.begin(), specs_.end(), [](const CommandSpec& a, const CommandSpec& b) { return a.name < b.name; });
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const std::string_view name = specs_[i].name;
    if (name.empty() || name[0] < 'a' || name[0] > 'z' || name != to_lower(name)) {
      throw std::logic_error("command names are lower case: '" + std::string(name) + "'");
    }
    if (i > 0 && specs_[i - 1].name == name) {
      throw std::logic_error("command '" + std::string(name) + "' is registered twice");
    }
    if (const std::string problem = row_problem(specs_[i]); !problem.empty()) {
      throw std::logic_error("command '" + std::string(name) + "': " + problem);
    }
  }
  std::size_t slot_count = 1;
  while (slot_count < specs_.size() * kMinSlotsPerCommand) slot_count *= 2;  // a power of two: mask, not modulo
  if (specs_.size() >= 0xffff) throw std::logic_error("too many commands for a 16-bit index");
  slots_.assign(slot_count, 0);
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    std::size_t slot = command_name_hash(specs_[i].name) & (slot_count - 1);
    while (slots_[slot] != 0) slot = (slot + 1) & (slot_count - 1);  // the index is never full
    slots_[slot] = static_cast<std::uint16_t>(i + 1);
  }
  frozen_ = true;
}

const CommandSpec* CommandTable::find(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = command_name_hash(name) & mask;
  // Bounded by the index's size; an empty slot ends the run well before that.
  for (std::size_t probes = 0; probes < slots_.size(); ++probes, slot = (slot + 1) & mask) {
    const std::uint16_t entry = slots_[slot];
    if (entry == 0) return nullptr;
    const CommandSpec& spec = specs_[entry - 1u];
    if (same_name(spec.name, name)) return &spec;
  }
  return nullptr;
}

void install_command_table(const CommandTable& table) {
  if (!table.frozen()) throw std::logic_error("install_command_table: freeze() the table first");
  const CommandTable* expected = nullptr;
  if (installed.compare_exchange_strong(expected, &table, std::memory_order_acq_rel)) return;
  if (expected != &table) throw std::logic_error("a process runs one command table: another one is installed");
}

const CommandSpec* find_command(std::string_view name) { return installed_table().find(name); }

std::span<const CommandSpec> all_commands() { return installed_table().all(); }

}  // namespace lockcheck::mock
