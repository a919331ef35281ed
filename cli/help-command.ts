import type { Command } from "commander";

/**
 * Gives `command` and each of its descendants with subcommands a `help [command]` of their own in place of
 * commander's: commander answers a name it does not know (`service help bogus`) with the whole help and not a word
 * of what was wrong. Here that is the usage error `service bogus` gives: `error: unknown command 'bogus'`, exit 2.
 * Called once every command is registered, so `help` stays last in the listings.
 */
export function replaceHelpCommands(command: Command): void {
  const children = [...command.commands];
  if (children.length === 0) return;
  for (const child of children) replaceHelpCommands(child);
  command.helpCommand(false);
  command
    .command("help")
    .argument("[command...]", "a command, and its subcommand where it has them (service help query events)")
    .description("display help for command")
    .action((names: string[]) => {
      let helped = command;
      for (const name of names) {
        const named = helped.commands.find((child) => child.name() === name || child.aliases().includes(name));
        if (!named) command.error(`error: unknown command '${names.join(" ")}'`, { code: "commander.unknownCommand" });
        helped = named;
      }
      helped.help();
    });
}
