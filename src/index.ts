// The jsii surface: only what users of the constructs need. Internal layers are not exported.
export {};
