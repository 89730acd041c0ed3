/*
 * The Windows launcher of the script provider package, which a synthesized stack carries.
 * Terraform on Windows starts a plugin only from an executable, and that package's provider is
 * provider.js, run by the user's Node. This program, named terraform-provider-hosting_v<version>.exe
 * beside provider.js, runs `node.exe "<its folder>\provider.js" <its arguments>` on Terraform's
 * standard handles, waits for it, and exits with Node's exit code.
 *
 * - node.exe is looked up on PATH alone, never in the current folder: a node.exe dropped into a
 *   stack's folder must not run with the API token in its environment. So relative PATH entries
 *   (".", "bin"), which Windows would resolve against Terraform's working folder, are skipped, and
 *   quoted entries ("C:\Program Files\nodejs", as installers may write them) are unquoted.
 * - Node runs in a job that ends with the launcher: a provider Terraform kills never outlives it.
 * - Ctrl-C is ignored, by the launcher and by Node (the setting is inherited), as go-plugin's own
 *   plugins ignore it: Terraform asks a provider to stop through StopProvider.
 *
 * No C runtime: kernel32 alone, a few KB, built reproducibly by scripts/build-windows-launcher.js
 * (zig from PyPI). The .exe files beside this source are that build's output, checked by
 * the package step (`npx projen windows-launcher:check`).
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#define WIDE_MAX 32768

static void write_error(const char *text) {
  DWORD length = 0, written;
  while (text[length]) length++;
  WriteFile(GetStdHandle(STD_ERROR_HANDLE), text, length, &written, NULL);
}

static void fail(const char *reason) {
  write_error("terraform-provider-hosting (the Windows launcher of the script provider): ");
  write_error(reason);
  write_error("\n");
  ExitProcess(1);
}

static DWORD wide_length(const WCHAR *text) {
  DWORD length = 0;
  while (text[length]) length++;
  return length;
}

static WCHAR *append(WCHAR *to, const WCHAR *text) {
  while (*text) *to++ = *text++;
  return to;
}

/* The arguments of a command line: what follows the program name, parsed as Windows parses argv[0]. */
static const WCHAR *arguments_of(const WCHAR *command_line) {
  const WCHAR *at = command_line;
  if (*at == L'"') {
    at++;
    while (*at && *at != L'"') at++;
    if (*at) at++;
  } else {
    while (*at && *at != L' ' && *at != L'\t') at++;
  }
  return at;
}

static WCHAR *wide_buffer(DWORD characters) {
  WCHAR *buffer = HeapAlloc(GetProcessHeap(), HEAP_ZERO_MEMORY, characters * sizeof(WCHAR));
  if (!buffer) fail("out of memory");
  return buffer;
}

/* The folder this executable is in, with its trailing separator. */
static WCHAR *own_folder(void) {
  WCHAR *path = wide_buffer(WIDE_MAX);
  DWORD length = GetModuleFileNameW(NULL, path, WIDE_MAX);
  if (length == 0 || length >= WIDE_MAX) fail("cannot read the path of its own executable");
  while (length > 0 && path[length - 1] != L'\\' && path[length - 1] != L'/') length--;
  path[length] = 0;
  return path;
}

/* Whether `dir` is absolute: a drive's root (C:\ or C:/) or a UNC path (\\server\share). */
static int is_absolute(const WCHAR *dir) {
  int drive = ((dir[0] >= L'A' && dir[0] <= L'Z') || (dir[0] >= L'a' && dir[0] <= L'z')) && dir[1] == L':' && (dir[2] == L'\\' || dir[2] == L'/');
  return drive || (dir[0] == L'\\' && dir[1] == L'\\');
}

/* The next PATH entry from `at` into `dir`, unquoted (a quoted entry may hold ';'); returns where the one after starts. */
static const WCHAR *next_entry(const WCHAR *at, WCHAR *dir) {
  int quoted = 0;
  for (; *at && (quoted || *at != L';'); at++) {
    if (*at == L'"') quoted = !quoted;
    else *dir++ = *at;
  }
  *dir = 0;
  return *at ? at + 1 : at;
}

/* node.exe in the first absolute PATH entry that has it, or NULL. */
static WCHAR *node_on_path(void) {
  WCHAR *path = wide_buffer(WIDE_MAX);
  WCHAR *node = wide_buffer(WIDE_MAX + 16);
  DWORD length = GetEnvironmentVariableW(L"PATH", path, WIDE_MAX);
  if (length == 0 || length >= WIDE_MAX) return NULL;
  for (const WCHAR *at = path; *at;) {
    at = next_entry(at, node);
    if (!is_absolute(node)) continue;
    WCHAR *end = node + wide_length(node);
    if (end[-1] != L'\\' && end[-1] != L'/') *end++ = L'\\';
    append(end, L"node.exe")[0] = 0;
    DWORD attributes = GetFileAttributesW(node);
    if (attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY)) return node;
  }
  return NULL;
}

static WCHAR *node_to_run(void) {
  WCHAR *node = node_on_path();
  if (!node) {
    fail("node.exe is not in any absolute folder on PATH (relative entries are skipped). This provider package runs provider.js with Node "
         "(20 or newer): install Node and put it on PATH, "
         "or use the standalone provider, which needs no Node: HostingApi's standaloneProvider prop (standalone_provider in Python) "
         "in a stack, or the release's windows_amd64 executable (or `provider mirror --standalone`) for plain HCL.");
  }
  return node;
}

/* A job that kills what it holds when its last handle closes, that is, when the launcher ends. */
static HANDLE job_ending_with_launcher(void) {
  HANDLE job = CreateJobObjectW(NULL, NULL);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
  BYTE *bytes = (BYTE *)&limits;
  for (DWORD i = 0; i < sizeof limits; i++) bytes[i] = 0;
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (job && !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
    CloseHandle(job);
    return NULL;
  }
  return job;
}

void __stdcall start(void) {
  const WCHAR *node = node_to_run();
  const WCHAR *folder = own_folder();
  const WCHAR *arguments = arguments_of(GetCommandLineW());
  WCHAR *command = wide_buffer(wide_length(node) + wide_length(folder) + wide_length(arguments) + 32);
  WCHAR *end = append(append(append(append(append(command, L"\""), node), L"\" \""), folder), L"provider.js\"");
  append(end, arguments);

  SetConsoleCtrlHandler(NULL, TRUE);
  STARTUPINFOW startup;
  BYTE *bytes = (BYTE *)&startup;
  for (DWORD i = 0; i < sizeof startup; i++) bytes[i] = 0;
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  startup.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION process;
  if (!CreateProcessW(node, command, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL, NULL, &startup, &process)) fail("cannot start node.exe");
  /* Not in a job only where the launcher's own job forbids another; its job then holds Node too. */
  HANDLE job = job_ending_with_launcher();
  if (job) AssignProcessToJobObject(job, process.hProcess);
  ResumeThread(process.hThread);
  WaitForSingleObject(process.hProcess, INFINITE);
  DWORD exit_code = 1;
  GetExitCodeProcess(process.hProcess, &exit_code);
  ExitProcess(exit_code);
}
