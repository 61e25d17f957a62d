export declare function requiredNode(packageJsonPath?: string | URL): { major: number; minor: number };
export declare function supportsNode(version: string, required?: { major: number; minor: number }): boolean;
export declare function requireSupportedNode(): void;
