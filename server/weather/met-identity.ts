/** MET blocks requests without an identifying User-Agent (application name plus contact): refused when it is set up. */
export function identifyingUserAgent(userAgent: string): string {
  if (userAgent.trim() === "") throw new Error("MET requires an identifying User-Agent; none was configured");
  return userAgent;
}
