import { describe, expect, it } from 'vitest';
import { expectRefused, WORKSPACE } from './blacklist-corpus.test-helper.js';

/**
 * Targets and command names the shell assembles at run time: brace expansion, IFS and
 * parameter-expansion tricks, command substitution, variables, and absolute paths that are
 * the workspace itself or outside it.
 */
export const BRACES = [
  'rm -rf {~,/tmp/x}',
  'rm -rf {/,x}',
  'rm -rf x{,/../../../../..}',
  'rm -rf ./{a,..}',
  '{rm,-rf,~}',
  '{rm,-rf,/}',
  'env {rm,-rf,~}',
  'rm -rf {build,{~,dist}}',
  'chmod {777,644} f',
  'rm -r{f,} ~',
];

export const EXPANSION_TRICKS = [
  'rm -rf "${HOME%/}"',
  'rm -rf "${HOME:?}"',
  'rm -rf ${HOME:-/}',
  'rm -rf "${VAR:?}"/',
  'rm -rf ${!ref}',
  'rm -rf ~+',
  'rm -rf ~-',
  'rm -rf ~+/',
  'IFS=,; x=rm,-rf,/; $x',
  'IFS=/; rm -rf $x',
  'rm${IFS}-rf${IFS}$D',
  'HOME=/; rm -rf ~',
  'HOME=/ && rm -rf "$HOME"',
  'export HOME=/etc; rm -rf ~/',
  'PWD=/; rm -rf "$PWD"',
  'CDPATH=/; cd etc && rm -rf *',
  'rm -rf $((0))',
  'rm -rf "$@"',
  'rm -rf $*',
];

export const SUBSTITUTIONS = [
  "rm -rf $(printf '/')",
  'rm -rf "$(printf %s ~)"',
  'rm -rf `echo ~`',
  'rm -rf $(echo /)',
  'rm -rf "$(dirname "$(pwd)")"',
  'rm -rf $(cat targets.txt)',
  'shred -u $(find ~ -type f)',
  'truncate -s 0 $(ls)',
  'chown -R nobody "$(dirname "$(pwd)")"',
  'cd .. && rm -rf $(pwd)',
  'cd /; rm -rf $(pwd)/*',
  'rm -rf "$(pwd)"',
  'rm -rf "`pwd`"/..',
  '$(echo rm) -rf ~',
  '$(printf "\\x72\\x6d") -rf ~',
  '`printf rm` -rf ~',
  '"$(which rm)" -rf ~',
];

export const VARIABLES = [
  'rm -rf "$D"',
  'D=~; rm -rf "$D"',
  'D=build; rm -rf $D/',
  'rm -rf "${TARGET}"',
  'rm -r -f -- "$dir"',
  'rm --recursive --force "$X"/*',
  'rm -f "$F"',
  'rm "$F" "$G"',
  'a=rm; $a -rf /',
  '$CMD -rf ~',
  '"$RM" -rf build',
  '${RM:-rm} -rf ~',
  'shred -u "$FILE"',
  'truncate -s0 "$DEV"',
  'chown -R me "$DIR"',
  'chgrp staff "$P"',
  'chmod "$MODE" file',
  'chmod -R 755 "$DIR"',
  'unlink "$F"',
  'nice rm -rf "$D"',
  'env X=1 rm -rf "$D"',
  'bash -c \'rm -rf "$0"\' ~',
  'sh -c "rm -rf \\$1" _ ~',
];

export const ABSOLUTE_TARGETS = [
  `rm -rf ${WORKSPACE}`,
  `rm -rf ${WORKSPACE}/`,
  `rm -rf ${WORKSPACE}/*`,
  `rm -rf ${WORKSPACE}/.`,
  `rm -rf ${WORKSPACE}/src/../..`,
  'rm -rf /home/tester/projects',
  'rm -rf /home/tester/projects/other',
  'rm -rf ~/projects/other',
  'rm -rf ~/Documents',
  'rm -rf /tmp/x',
  'rm -rf /var/tmp/cache',
  'rm -rf /opt/app/data',
  'rm -rf ../other',
  'rm -rf ./../other',
  'rm -rf src/../../other',
  'rm -rf ./?*',
  'rm -rf ./.[!.]*',
  'rm -rf "$HOME/projects/other"',
  'cd /tmp && rm -rf x',
  'cd /tmp/scratch && rm -rf *',
  'cd build; rm -rf *',
  'cd build || rm -rf *',
  '(cd build) && rm -rf *',
  'cd build & rm -rf *',
  'cd build | rm -rf *',
  'cd "$X" && rm -rf build',
  'cd - && rm -rf build',
  'pushd build && popd && rm -rf build',
  'rm -rf /w*',
];

describe('blacklist corpus: targets and names assembled at run time', () => {
  it.each(BRACES)('brace expansion: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(EXPANSION_TRICKS)('IFS and parameter-expansion tricks: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(SUBSTITUTIONS)('command substitution: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(VARIABLES)('variables: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(ABSOLUTE_TARGETS)('the workspace or a path outside it as a recursive-delete target: refuses %j', (command) => {
    expectRefused(command);
  });

  it('names the part that could not be verified', () => {
    expect(expectRefused('rm -rf "$D"', 'unverifiable').message).toContain(
      'rm -rf gets an argument from the variable `$D`, which the blacklist cannot verify; write the paths out literally',
    );
    expect(expectRefused('rm -rf "${HOME%/}"', 'unverifiable').message).toContain('the parameter expansion `${HOME%/}`');
    expect(expectRefused("rm -rf $(printf '/')", 'unverifiable').message).toContain("the command substitution `$(printf '/')`");
    expect(expectRefused('rm -rf ~+', 'unverifiable').message).toContain('the tilde expansion `~+`');
    expect(expectRefused('a=rm; $a -rf /', 'unverifiable').message).toContain('the command to run comes from the variable `$a`');
  });

  it('says a recursive delete of the workspace or outside it must stay inside', () => {
    expect(expectRefused(`rm -rf ${WORKSPACE}`, 'destructive').message).toContain('would delete the whole workspace');
    expect(expectRefused('rm -rf /tmp/x', 'destructive').message).toContain('targets /tmp/x, outside the workspace /home/tester/projects/app');
    expect(expectRefused('cd build; rm -rf *', 'destructive').message).toContain('counting the case that an earlier cd failed');
  });
});
