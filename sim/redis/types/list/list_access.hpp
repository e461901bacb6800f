#pragma once
// Shared by the list commands (and the blocking pops): typed lookup, index arithmetic, moving an element.
#include <cstdint>
#include <optional>
#include <string_view>

#include "redis/keyspace/keyspace.hpp"
#include "lockcheck/reply.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock {

inline List* find_list(Keyspace& keys, std::string_view key, bool& wrong_type) {
  return find_typed<List>(keys, key, wrong_type);
}

// LEFT -> true, RIGHT -> false (any case); nullopt for anything else.
std::optional<bool> parse_list_side(std::string_view text);

// A Redis list index (negative counts from the end) as a position, or nullopt when out of range.
std::optional<std::size_t> list_position(std::int64_t index, std::size_t size);

// LMOVE's body once its sides are parsed: nil when the source is missing or empty, WRONGTYPE when either key
// holds another type, otherwise the moved element (the source key is deleted when emptied).
Reply move_list_element(Keyspace& keys, std::string_view source_key, std::string_view destination_key, bool from_left,
                        bool to_left);

}  // namespace lockcheck::mock
