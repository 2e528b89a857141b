// Stylesheets imported for their side effect; vite bundles them.
declare module "*.css";
