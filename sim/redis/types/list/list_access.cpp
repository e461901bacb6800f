#include "redis/types/list/list_access.hpp"

#include "redis/command_table/errors.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {

std::optional<bool> parse_list_side(std::string_view text) {
  if (iequals(text, "left")) return true;
  if (iequals(text, "right")) return false;
  return std::nullopt;
}

std::optional<std::size_t> list_position(std::int64_t index, std::size_t size) {
  const auto signed_size = static_cast<std::int64_t>(size);
  if (index < 0) index += signed_size;
  if (index < 0 || index >= signed_size) return std::nullopt;
  return static_cast<std::size_t>(index);
}

Reply move_list_element(Keyspace& keys, std::string_view source_key, std::string_view destination_key, bool from_left,
                        bool to_left) {
  bool wrong_type = false;
  List* source = find_list(keys, source_key, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (source == nullptr || source->empty()) return Reply::nil();
  List* destination = find_list(keys, destination_key, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::string element = from_left ? std::move(source->front()) : std::move(source->back());
  if (from_left) source->pop_front();
  else source->pop_back();
  const bool created = destination == nullptr;
  if (created) destination = &std::get<List>(keys.add(destination_key, Value{List{}}).value);
  if (to_left) destination->push_front(element);
  else destination->push_back(element);
  if (source != destination) {
    if (source->empty()) keys.remove(source_key);
    else keys.modified(source_key);
  }
  if (!created) keys.modified(destination_key);
  return Reply::bulk(std::move(element));
}

}  // namespace lockcheck::mock
