// A Discord webhook URL carries its credential in its path
// (https://discord.com/api/webhooks/<id>/<token>, also discordapp.com, ptb./canary., /api/v10/):
// wherever such a URL is shown (audit data, events, an endpoint to a reader), the token is cut.
const DISCORD_WEBHOOK = /((?:https?:\/\/)?(?:[a-z0-9-]+\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/[^/\s"?#]+\/)[^\s"?#]+/gi;

/** `text` with the token of every Discord webhook URL replaced by `…`. */
export const withoutDiscordTokens = (text: string): string =>
  /discord/i.test(text) ? text.replace(DISCORD_WEBHOOK, '$1…') : text;
