/**
 * What inline interpreter code (`python3 -c`, `perl -e`, `node -e`, …) may do that the command
 * blacklist cannot follow: delete files, start a shell or another program, open a network
 * connection, or build code at run time (which could do any of these). One table per language;
 * a pattern is a word the code must spell, so `print(1)` or `console.log(1)` matches nothing.
 */
export type InlineEffect = 'delete' | 'spawn' | 'connect' | 'dynamic';

export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'r' | 'awk' | 'powershell' | 'tcl';

type Table = Partial<Record<InlineEffect, RegExp>>;

const TABLES: Record<Language, Table> = {
  python: {
    delete:
      /\b(?:rmtree|unlink|rmdir|removedirs|send2trash)\b|\b(?:os|posix|nt)\s*\.\s*remove\b|\bimport\b[^\n;]{0,200}\bremove\b|^(?=[\s\S]*\b(?:os|posix)\b)[\s\S]*?\.\s*remove\s*\(/,
    spawn:
      /\bsubprocess\b|\b(?:os|posix|nt)\s*\.\s*(?:system|popen|exec[lv]p?e?|spawn\w*|fork|forkpty|posix_spawnp?)\b|^(?=[\s\S]*\b(?:os|posix)\b)[\s\S]*?\.\s*(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?|forkpty)\s*\(|\bfrom\s+(?:os|posix|shutil|subprocess|pty|socket)\s+import\s+\*|\bpty\b|\bimport\b[^\n;]{0,200}\b(?:system|popen|exec[lv]p?e?|spawn\w*|posix_spawnp?)\b|\bmultiprocessing\b|\bcommands\s*\.\s*getoutput\b/,
    connect:
      /\bsocket\s*\.\s*(?:socket|create_connection|create_server|socketpair|fromfd)\b|\bfrom\s+socket\s+import\b|\.connect(?:_ex)?\s*\(|\.bind\s*\(|\burllib\d?\b|\bhttp\.client\b|\bhttplib\b|\brequests\b|\bhttpx\b|\baiohttp\b|\bftplib\b|\bsmtplib\b|\btelnetlib\b|\bparamiko\b|\bwebsockets?\b|\bopen_connection\b|\bhttp\.server\b|\bsocketserver\b/,
    dynamic:
      /\b__import__\b|\bimportlib\b|\b(?:eval|exec|compile|getattr|globals|vars|breakpoint)\s*\(|\b__builtins__\b|\b__dict__\b|\bmarshal\b|\bpickle\b|\bctypes\b|\bsys\s*\.\s*modules\b/,
  },
  node: {
    delete:
      /\b(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncate|truncateSync|ftruncate|ftruncateSync|remove|removeSync|emptyDir|emptyDirSync)\s*\(|\brimraf\b|\[\s*['"`](?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncateSync)['"`]\s*\]/,
    spawn:
      /\bchild_process\b|\[\s*['"`](?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)['"`]\s*\]|\b(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)\s*\(|\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)\b|\bworker_threads\b|\bBun\s*\.\s*spawn|\bDeno\s*\.\s*(?:run|Command)\b/,
    connect:
      /\brequire\s*\(\s*['"`](?:node:)?(?:net|dgram|tls|http|https|http2)['"`]|\b(?:net|tls|dgram|http|https|http2)\s*\.\s*(?:connect|createConnection|Socket|createSocket|createServer|get|request)\b|\bfetch\s*\(|\bWebSocket\b|\bXMLHttpRequest\b|\b(?:Deno|Bun)\s*\.\s*(?:connect|listen)\b|\.connect\s*\(|\bcreateConnection\b|\bundici\b|\baxios\b/,
    dynamic:
      /\beval\s*\(|\bFunction\s*\(|\bimport\s*\(|\brequire\s*\(\s*[^'"`\s)]|\brequire\s*\(\s*(['"`])[^'"`]{0,200}\1\s*\+|\bmodule\s*\.\s*require\b|\brequire\s*\(\s*`[^`]{0,200}\$\{|\bvm\s*\.\s*(?:run|Script|compile)|\bprocess\s*\.\s*mainModule\b|\bmodule\s*\.\s*constructor\b|\bglobalThis\s*\[|\bconstructor\s*\.\s*constructor\b|\bconstructor\s*\[|\batob\s*\(/,
  },
  perl: {
    delete: /\b(?:unlink|rmtree|remove_tree|rmdir|truncate)\b/,
    spawn: /\b(?:system|exec|fork|qx|syscall|readpipe)\b|`|\bIPC::(?:Open[23]|Run|Cmd)\b|\bopen\d?\b[^;]{0,200}\|/,
    connect: /\bIO::Socket|\bSocket\b|\bsocket\s*\(|\bLWP\b|\bHTTP::Tiny\b|\bNet::|\bconnect\s*\(/,
    dynamic: /\beval\b|\bdo\s+['"$]|\brequire\s+\$|&\s*[{$]|\bCORE::|\bno\s+strict\b|\bMIME::Base64\b/,
  },
  ruby: {
    delete:
      /\bFileUtils\b|\bFile\s*\.\s*(?:delete|unlink|truncate)\b|\bDir\s*\.\s*(?:rmdir|delete|unlink)\b|\brm_rf?\b|\bremove_(?:dir|entry|file)\b|\.rmtree\b/,
    spawn: /\b(?:system|exec|spawn|fork|syscall)\b|`|%x|\bIO\s*\.\s*popen\b|\bOpen3\b|\bPTY\b|\bKernel\b/,
    connect: /\b(?:TCPSocket|UDPSocket|TCPServer|Socket)\b|\bNet::|\bopen-uri\b|\bURI\s*\.\s*open\b|\bOpenURI\b/,
    dynamic:
      /\b(?:eval|instance_eval|class_eval|module_eval|send|public_send|__send__|const_get|method|define_method)\b|\bBase64\b|\bMarshal\b|\brequire\s*\(?\s*[^'"\s(]/,
  },
  php: {
    delete: /\b(?:unlink|rmdir|ftruncate)\s*\(/,
    spawn: /\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|pcntl_fork|mail)\s*\(|`/,
    connect:
      /\b(?:fsockopen|pfsockopen|socket_create|socket_connect|stream_socket_client|stream_socket_server|curl_init|curl_exec)\b|\b(?:file_get_contents|fopen|file|copy)\s*\(\s*['"]\w+:\/\//,
    dynamic:
      /\b(?:eval|assert|create_function|call_user_func(?:_array)?|base64_decode|str_rot13|gzinflate|gzuncompress)\s*\(|\$\w+\s*\(|\binclude\b|\brequire\b/,
  },
  lua: {
    delete: /\bos\s*\.\s*remove\b/,
    spawn: /\bos\s*\.\s*execute\b|\bio\s*\.\s*popen\b/,
    connect: /\bsocket\b/,
    dynamic: /\bload(?:string)?\s*\(|\bdofile\b|\bloadfile\b/,
  },
  r: {
    delete: /\bunlink\s*\(|\bfile\s*\.\s*remove\b/,
    spawn: /\bsystem2?\s*\(|\bpipe\s*\(|\bprocessx\b/,
    connect: /\burl\s*\(|\bsocketConnection\b|\bdownload\s*\.\s*file\b|\bcurl\b|\bhttr\b/,
    dynamic: /\beval\s*\(|\bparse\s*\(|\bdo\s*\.\s*call\b|\bget\s*\(/,
  },
  awk: {
    spawn: /\bsystem\s*\(|\|\s*&?\s*getline|\bprintf?\b[^;}]{0,200}\|/,
    connect: /\/inet\d?\//,
  },
  tcl: {
    delete: /\bfile\s+delete\b/,
    spawn: /\b(?:exec|spawn|system)\b|\bopen\s+["{]?\|/,
    connect: /\bsocket\b|\bhttp::/,
    dynamic: /\b(?:eval|uplevel|subst|source)\b/,
  },
  powershell: {
    delete: /\b(?:Remove-Item|ri|rm|rmdir|del|erase|rd|Clear-Content)\b/i,
    spawn: /\b(?:Start-Process|saps|start|Invoke-Expression|iex|Invoke-Command|icm|cmd|bash|sh)\b|\bDiagnostics\.Process\b|&\s*[($'"]/i,
    connect: /\b(?:Invoke-WebRequest|iwr|Invoke-RestMethod|irm|curl|wget|Net\.Sockets|Net\.WebClient|TcpClient|WebRequest)\b/i,
    dynamic: /\bScriptBlock\b|\bFromBase64String\b|-enc\b|-EncodedCommand\b/i,
  },
};

const ORDER: InlineEffect[] = ['delete', 'spawn', 'connect', 'dynamic'];

/** The first thing the code does that the blacklist cannot follow, and the word that says so. */
export function inlineEffect(language: Language, code: string): { effect: InlineEffect; primitive: string } | undefined {
  // awk: a `|` inside a string literal (`print $1 "|" $2`) is text, not a pipe.
  const text = language === 'awk' ? code.replace(/"(?:[^"\\]|\\.)*"/g, '""') : code;
  const table = TABLES[language];
  for (const effect of ORDER) {
    const m = table[effect]?.exec(text);
    if (m)
      return {
        effect,
        primitive: m[0]
          .trim()
          .replace(/\s+/g, ' ')
          .replace(/[\s(]+$/, '')
          .slice(0, 40),
      };
  }
  return undefined;
}

export const EFFECT_WORDS: Record<InlineEffect, { does: string; instead: string }> = {
  delete: { does: 'deletes files', instead: 'delete with rm and literal paths inside the workspace instead' },
  spawn: { does: 'starts a shell or another program', instead: 'run that command directly with run_command, where it is checked' },
  connect: { does: 'opens a network connection', instead: 'fetch with web_fetch, or curl with a literal URL' },
  dynamic: { does: 'builds code at run time', instead: 'write the code out plainly, with no eval, dynamic import or encoded text' },
};
