/*
 * The one place the constructs meet CDK for Terraform: every construct imports it from here. The
 * CDK Terrain flavour of the package (cdktn-server-hosting, scripts/flavour-cdktn.js) is this
 * library with this module pointing at `cdktn`, cdktf's continuation, which keeps its API.
 */
export { App, AssetType, ComplexList, ComplexObject, DataResource, Fn, LocalBackend, TerraformAsset, TerraformBackend, TerraformCount, TerraformDataSource, TerraformProvider, TerraformResource, TerraformStack, Token, Tokenization } from 'cdktf';
export type { IInterpolatingParent, IResolvable, ISynthesisSession, ITerraformDependable, ITerraformIterator, TerraformMetaArguments, TerraformResourceLifecycle } from 'cdktf';
// The index does not export it; the synthesizer module is its public home.
export { addCustomSynthesis } from 'cdktf/lib/synthesize/synthesizer';
