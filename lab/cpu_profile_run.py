"""Run a module under cProfile counting the process's CPU time (all threads), not wall time:

    python lab/cpu_profile_run.py OUT.prof -m gonzaga serve ...

(procs_load.py uses it with PROFILE_DIR and PROFILE_CPU=1). The profile is written when the
module returns (``gonzaga serve`` does at SIGTERM).
"""
import cProfile
import runpy
import sys
import time

out = sys.argv[1]
assert sys.argv[2] == "-m"
module = sys.argv[3]
sys.argv = [module, *sys.argv[4:]]
profile = cProfile.Profile(time.process_time)
profile.enable()
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.disable()
    profile.dump_stats(out)
