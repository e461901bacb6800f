#include "redis/scripting/embedded_chunk.hpp"

#include <cstring>
#include <lua.hpp>
#include <map>
#include <mutex>
#include <string>

namespace lockcheck::mock {
namespace {

int append_bytes(lua_State*, const void* bytes, std::size_t size, void* out) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(bytes), size);
  return 0;
}

}  // namespace

std::string compile_chunk(std::string_view source, const char* chunkname, std::string& error) {
  lua_State* scratch = luaL_newstate();
  if (scratch == nullptr) {
    error = "out of memory compiling a Lua chunk";
    return {};
  }
  std::string bytecode;
  if (luaL_loadbufferx(scratch, source.data(), source.size(), chunkname, "t") != LUA_OK) {
    error = lua_tostring(scratch, -1) ? lua_tostring(scratch, -1) : "?";
  } else {
    lua_dump(scratch, append_bytes, &bytecode, 0);
  }
  lua_close(scratch);
  return bytecode;
}

int load_embedded_chunk(lua_State* L, const char* source, const char* chunkname) {
  static std::mutex mutex;
  static std::map<const char*, std::string> compiled;  // a handful of entries, one per library
  std::string error;
  const std::string* bytecode = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = compiled.find(source);
    if (it == compiled.end()) {
      std::string code = compile_chunk(source, chunkname, error);
      if (code.empty()) {
        lua_pushstring(L, error.c_str());
        return LUA_ERRSYNTAX;
      }
      it = compiled.emplace(source, std::move(code)).first;
    }
    bytecode = &it->second;  // map nodes never move, and entries are never erased
  }
  return luaL_loadbufferx(L, bytecode->data(), bytecode->size(), chunkname, "b");
}

}  // namespace lockcheck::mock
