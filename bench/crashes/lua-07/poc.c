#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  /* a value whose __close metamethod recurses deeply, so the Lua stack is reallocated */
  luaL_loadstring(L,
    "local function deep (n) if n > 0 then return 1 + deep(n - 1) end return 0 end\n"
    "return setmetatable({}, {__close = function () deep(1000) end})");
  lua_call(L, 0, 1);
  lua_toclose(L, -1);
  lua_settop(L, 0);       /* runs __close, then sets top from a stale stack pointer */
  lua_pushinteger(L, 1);  /* writes through the stale top */
  lua_close(L);
  return 0;
}
