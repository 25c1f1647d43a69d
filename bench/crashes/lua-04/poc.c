#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

/* each suspended coroutine holds a to-be-closed value whose __close closes
   the previously created coroutine; closing the last one recurses in C */
static const char script[] =
  "local last\n"
  "for i = 1, 20000 do\n"
  "  local prev = last\n"
  "  last = coroutine.create(function ()\n"
  "    local guard <close> = setmetatable({}, {__close = function ()\n"
  "      if prev then coroutine.close(prev) end\n"
  "    end})\n"
  "    coroutine.yield()\n"
  "  end)\n"
  "  coroutine.resume(last)\n"
  "end\n"
  "return coroutine.close(last)\n";

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  if (luaL_loadstring(L, script) == LUA_OK)
    lua_pcall(L, 0, 0, 0);
  lua_close(L);
  return 0;
}
