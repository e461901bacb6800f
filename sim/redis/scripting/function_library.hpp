#pragma once
// Redis 7 function libraries of one node (FUNCTION LOAD/DELETE/FLUSH, FCALL's lookup): each library is
// its `#!lua name=<lib>` code and the functions it registered. Library names are case-sensitive, function
// names are not, as in Redis 7.0. Libraries are part of the node's data: snapshots carry their code.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redis/scripting/lua_function_lib.hpp"

namespace lockcheck::mock {

class LuaEngine;

struct FunctionLibrary {
  std::string name;
  std::string code;  // the whole payload FUNCTION LOAD got, shebang included (FUNCTION LIST WITHCODE)
  std::vector<RegisteredFunction> functions;  // sorted by name (Redis: its dict's order)
};

class FunctionLibraries {
 public:
  explicit FunctionLibraries(LuaEngine& lua) : lua_(lua) {}
  ~FunctionLibraries();
  FunctionLibraries(const FunctionLibraries&) = delete;
  FunctionLibraries& operator=(const FunctionLibraries&) = delete;

  // FUNCTION LOAD [REPLACE]: the library's name, or Redis's error text (without "ERR ").
  struct LoadResult {
    std::string name;
    std::optional<std::string> error;
  };
  LoadResult load(const std::string& code, bool replace);
  bool remove(const std::string& library_name);
  void flush();

  const RegisteredFunction* find(std::string_view function_name) const;
  const std::map<std::string, FunctionLibrary>& libraries() const { return libraries_; }
  // Registered functions, as FUNCTION STATS counts them (two names differing only in case count twice).
  std::size_t function_count() const;
  // Bumped by every change, so a simulator can tell that a command changed them (replication).
  std::uint64_t version() const { return version_; }

  // Library name -> code, for snapshots; restore() reloads them when they differ from what is loaded.
  std::map<std::string, std::string> codes() const;
  void restore(const std::map<std::string, std::string>& codes);

 private:
  void release(FunctionLibrary& library);
  void index(const FunctionLibrary& library);

  LuaEngine& lua_;
  std::map<std::string, FunctionLibrary> libraries_;
  std::map<std::string, std::pair<std::string, std::size_t>> by_function_;  // lower-case name -> (library, index)
  std::uint64_t version_ = 0;
};

}  // namespace lockcheck::mock
