/** What `tandem agents` and its subcommands need from the program: the data directory and how to end. */
export interface AgentsCommandContext {
  dataDirOf(flag: string | undefined): string;
  done(code: number): void;
}
