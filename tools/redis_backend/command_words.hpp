#pragma once
// A request's words, as the address rewriting reads them (address_filter.hpp): which command it is, and
// its arguments. Commands are case-insensitive.
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::redis_backend {

// `frame` is one whole request: a RESP array of bulk strings, or an inline command ("CLUSTER SLOTS\r\n", as
// redis-cli or telnet send). Throws std::runtime_error when an array is not RESP2.
std::vector<std::string> words_of(std::string_view frame);
std::string lowercase(std::string_view word);

}  // namespace lockcheck::redis_backend
