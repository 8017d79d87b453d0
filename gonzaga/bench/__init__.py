"""Speed figures (``gonzaga bench``), on the app's floor because they drive the whole game:
``engine`` (the rules and the AI's speed, and the command's figures), ``ui`` and ``anim`` (frame
times of the screens, each measured in a subprocess with SDL's dummy drivers), ``board`` (the
board renderer's timing, ``python -m gonzaga.bench.board``). They only measure: correctness lives
in the tests."""
