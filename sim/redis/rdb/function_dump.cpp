#include "redis/rdb/function_dump.hpp"

#include <optional>

#include "redis/rdb/rdb_io.hpp"

namespace lockcheck::mock {
namespace {

constexpr unsigned char kOpcodeFunction2 = 245;  // the library's whole code
constexpr unsigned char kOpcodeFunction = 246;   // 7.0 release candidates: name, engine, description, body

// rdbFunctionLoad for the 7.0-rc opcode: the code rebuilt as "#!<engine> name=<name>\n<body>".
std::optional<std::string> read_old_function(RdbReader& reader, std::string& error) {
  auto name = reader.string();
  if (!name) return error = "Failed loading library name", std::nullopt;
  auto engine = reader.string();
  if (!engine) return error = "Failed loading engine name", std::nullopt;
  auto has_description = reader.plain_length();
  if (!has_description) return error = "Failed loading library description indicator", std::nullopt;
  if (*has_description != 0 && !reader.string()) return error = "Failed loading library description", std::nullopt;
  auto body = reader.string();
  if (!body) return error = "Failed loading library blob", std::nullopt;
  return "#!" + *engine + " name=" + *name + "\n" + *body;
}

}  // namespace

std::string dump_function_codes(const std::vector<std::string>& codes) {
  std::string out;
  for (const std::string& code : codes) {
    out.push_back(static_cast<char>(kOpcodeFunction2));
    put_rdb_length(out, code.size());
    out += code;
  }
  append_dump_footer(out);
  return out;
}

std::variant<std::vector<std::string>, ReadPayloadError> read_function_payload(std::string_view payload) {
  if (!dump_footer_is_valid(payload)) return ReadPayloadError{"", true};

  std::vector<std::string> codes;
  RdbReader reader(payload);
  while (reader.left() > kDumpFooterBytes) {  // every library read consumes bytes
    auto type = reader.byte();
    if (!type) return ReadPayloadError{"can not read data type"};
    if (*type != kOpcodeFunction2 && *type != kOpcodeFunction) return ReadPayloadError{"given type is not a function"};
    std::string error;
    std::optional<std::string> code;
    if (*type == kOpcodeFunction) {
      code = read_old_function(reader, error);
    } else {
      code = reader.string();
      if (!code) error = "Failed loading library payload";
    }
    if (!code) return ReadPayloadError{error};
    codes.push_back(std::move(*code));
  }
  return codes;
}

}  // namespace lockcheck::mock
