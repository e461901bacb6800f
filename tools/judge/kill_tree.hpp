#pragma once
// SIGKILL a process and every process it started. An external client shares its worker's process group (so
// the run's pauses reach it: workers.cpp), so its group is not the unit to kill; its descendants are, found
// by their parent pids in /proc (a client run through `sh -c` or a launcher script is the grandchild).
#include <sys/types.h>

namespace lockcheck::judge {

// Stops each process before it lists its children, so none can start another unseen, then kills them all.
void kill_tree(pid_t root);

}  // namespace lockcheck::judge
