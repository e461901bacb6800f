#pragma once
// SHA-256 (FIPS 180-4) as lower-case hex: ACL passwords are stored and shown as this hash, as Redis does.
#include <string>
#include <string_view>

namespace lockcheck::mock {

std::string sha256_hex(std::string_view data);

}  // namespace lockcheck::mock
