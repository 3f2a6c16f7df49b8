import { describe, expect, it } from 'vitest';
import { expectAllowed, expectRefused } from './blacklist-corpus.test-helper.js';

/** `dd` in every form (requirements P3 lists it whole), and modes that equal chmod 777. */
export const DD_EVERY_FORM = [
  'dd if=/dev/zero of=/dev/sda',
  'dd of=/dev/sda if=/dev/zero',
  'dd of=disk.img if=/dev/zero bs=1M count=1',
  'dd if=/dev/zero of=disk.img',
  'dd if=/dev/sda',
  'dd of=~/.bashrc',
  'dd',
  '/bin/dd if=/dev/zero of=x',
  '/usr/bin/dd of=x',
  '\\dd of=x',
  "'d''d' of=x",
  'd\\d of=x',
  'cat /dev/zero | dd of=x',
  'echo x | dd of=~/.ssh/authorized_keys',
  'dd of=x <<< "data"',
  'sudo dd of=x',
  'env dd of=x',
  'nice -n 19 dd of=x',
  'timeout 10 dd if=/dev/urandom of=x',
  'nohup dd of=x &',
  'busybox dd of=x',
  'bash -c "dd of=x"',
  "sh -c 'dd if=/dev/zero of=/dev/sdb'",
  'find . -name x -exec dd if={} of=y \\;',
  'echo of=x | xargs dd',
  'ls; dd of=x',
  'true && dd of=x',
  '(dd of=x)',
  '{ dd of=x; }',
  '$(echo dd) of=x',
  '{dd,of=x}',
  'dcfldd of=x',
];

export const CHMOD_777 = [
  'chmod 777 f',
  'chmod 0777 f',
  'chmod 1777 dir',
  'chmod 666 f',
  'chmod 0002 f',
  'chmod -R 0777 .',
  'chmod -R 777 build',
  'chmod --recursive 777 build',
  'chmod a+rwx f',
  'chmod ugo+rwx f',
  'chmod ugo=rwx f',
  'chmod a=rwx f',
  'chmod +rwx f',
  'chmod =rwx f',
  'chmod o+w f',
  'chmod a+w f',
  'chmod go+w f',
  'chmod o=rwx f',
  'chmod u=rwx,g=rwx,o=rwx f',
  'chmod u+x,o+w f',
  'chmod go=u f',
  'chmod a+rwX -R .',
  'chmod -- 777 f',
  '/bin/chmod 777 f',
  'env chmod a+rwx f',
  'find . -type f -exec chmod 777 {} +',
  'echo f | xargs chmod 777',
  'bash -c "chmod o+w f"',
  'mkdir -m 777 d',
  'mkdir --mode=0777 d',
  'install -m 777 a b',
  'umask 000',
  'umask 0',
  'umask o=rwx',
  "chmod $'\\x37\\x37\\x37' f",
  'chmod +777 f',
  'chmod =0666 f',
  'chmod 4777 f',
];

describe('blacklist corpus: dd in every form, chmod equal to 777', () => {
  it.each(DD_EVERY_FORM)('dd: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(CHMOD_777)('modes equal to 777 or world-writable: refuses %j', (command) => {
    expectRefused(command);
  });

  it('says dd is refused whole and what to use instead', () => {
    const verdict = expectRefused('dd if=/dev/zero of=disk.img bs=1M count=1', 'disk');
    expect(verdict.message).toContain('refused in every form');
    expect(verdict.message).toContain('truncate -s 1M file.img');
  });

  it.each([
    ['chmod 644 f'],
    ['chmod 755 script.sh'],
    ['chmod +x script.sh'],
    ['chmod u+rwx f'],
    ['chmod g+w f'],
    ['chmod 775 dir'],
    ['chmod +w f'],
    ['chmod a+r f'],
    ['chmod o-w f'],
    ['chmod -R go-w .'],
    ['mkdir -m 755 d'],
    ['umask 022'],
    ['umask'],
  ])('allows narrower modes: %j', (command) => {
    expectAllowed(command);
  });
});
