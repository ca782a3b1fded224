/*
 * TFLite schema numbers used by the reader (internal; only src/tflite/ sees them).
 *
 * Source: tensorflow/lite/schema/schema.fbs (namespace tflite, file_identifier
 * "TFL3", schema version 3 with the 3a/3b/3c additions), as published in
 * tensorflow/tflite-micro.  FlatBuffers gives every table field a slot id in
 * declaration order, counting deprecated fields, and a union field takes two
 * slots: `<name>_type` (a u8) and then `<name>` (the table offset).  The
 * numbers below follow that rule; each comment names the schema field.
 *
 * Only the fields the reader uses are listed.  Values are fixed by the file
 * format: never renumber them.
 */
#ifndef TA_TFLITE_SCHEMA_IDS_H
#define TA_TFLITE_SCHEMA_IDS_H

#include <stdint.h>

#define TFL_FILE_IDENTIFIER "TFL3"
#define TFL_SCHEMA_VERSION 3u /* Model.version the reader accepts */

/* table Model */
enum {
    TFL_MODEL_VERSION = 0,        /* version:uint */
    TFL_MODEL_OPERATOR_CODES = 1, /* operator_codes:[OperatorCode] */
    TFL_MODEL_SUBGRAPHS = 2,      /* subgraphs:[SubGraph] */
    TFL_MODEL_DESCRIPTION = 3,    /* description:string */
    TFL_MODEL_BUFFERS = 4,        /* buffers:[Buffer] */
    TFL_MODEL_METADATA_BUFFER = 5,/* metadata_buffer:[int] (deprecated, unused) */
    TFL_MODEL_METADATA = 6,       /* metadata:[Metadata] */
    TFL_MODEL_SIGNATURE_DEFS = 7  /* signature_defs:[SignatureDef] (unused) */
};

/* table SubGraph */
enum {
    TFL_SUBGRAPH_TENSORS = 0,   /* tensors:[Tensor] */
    TFL_SUBGRAPH_INPUTS = 1,    /* inputs:[int] */
    TFL_SUBGRAPH_OUTPUTS = 2,   /* outputs:[int] */
    TFL_SUBGRAPH_OPERATORS = 3, /* operators:[Operator] */
    TFL_SUBGRAPH_NAME = 4       /* name:string */
};

/* table Tensor */
enum {
    TFL_TENSOR_SHAPE = 0,           /* shape:[int] */
    TFL_TENSOR_TYPE = 1,            /* type:TensorType (byte) */
    TFL_TENSOR_BUFFER = 2,          /* buffer:uint */
    TFL_TENSOR_NAME = 3,            /* name:string */
    TFL_TENSOR_QUANTIZATION = 4,    /* quantization:QuantizationParameters */
    TFL_TENSOR_IS_VARIABLE = 5,     /* is_variable:bool = false */
    TFL_TENSOR_SPARSITY = 6,        /* sparsity:SparsityParameters */
    TFL_TENSOR_SHAPE_SIGNATURE = 7, /* shape_signature:[int] */
    TFL_TENSOR_HAS_RANK = 8         /* has_rank:bool = false */
};

/* table QuantizationParameters */
enum {
    TFL_QUANT_MIN = 0,                /* min:[float] (unused) */
    TFL_QUANT_MAX = 1,                /* max:[float] (unused) */
    TFL_QUANT_SCALE = 2,              /* scale:[float] */
    TFL_QUANT_ZERO_POINT = 3,         /* zero_point:[long] */
    TFL_QUANT_DETAILS_TYPE = 4,       /* details:QuantizationDetails, type slot */
    TFL_QUANT_DETAILS = 5,            /* details:QuantizationDetails, value slot */
    TFL_QUANT_QUANTIZED_DIMENSION = 6 /* quantized_dimension:int */
};

/* table Operator */
enum {
    TFL_OP_OPCODE_INDEX = 0,           /* opcode_index:uint */
    TFL_OP_INPUTS = 1,                 /* inputs:[int] */
    TFL_OP_OUTPUTS = 2,                /* outputs:[int] */
    TFL_OP_BUILTIN_OPTIONS_TYPE = 3,   /* builtin_options:BuiltinOptions, type slot */
    TFL_OP_BUILTIN_OPTIONS = 4,        /* builtin_options:BuiltinOptions, value slot */
    TFL_OP_CUSTOM_OPTIONS = 5,         /* custom_options:[ubyte] */
    TFL_OP_CUSTOM_OPTIONS_FORMAT = 6,  /* custom_options_format:CustomOptionsFormat */
    TFL_OP_MUTATING_VARIABLE_INPUTS = 7, /* mutating_variable_inputs:[bool] (unused) */
    TFL_OP_INTERMEDIATES = 8,          /* intermediates:[int] */
    TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET = 9, /* large_custom_options_offset:ulong */
    TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE = 10,  /* large_custom_options_size:ulong */
    TFL_OP_BUILTIN_OPTIONS_2_TYPE = 11, /* builtin_options_2:BuiltinOptions2 (unused) */
    TFL_OP_BUILTIN_OPTIONS_2 = 12
};

/* table OperatorCode */
enum {
    TFL_OPCODE_DEPRECATED_BUILTIN_CODE = 0, /* deprecated_builtin_code:byte */
    TFL_OPCODE_CUSTOM_CODE = 1,             /* custom_code:string */
    TFL_OPCODE_VERSION = 2,                 /* version:int = 1 */
    TFL_OPCODE_BUILTIN_CODE = 3             /* builtin_code:BuiltinOperator (int32) */
};

/* table Buffer */
enum {
    TFL_BUFFER_DATA = 0,   /* data:[ubyte] (force_align: 16) */
    TFL_BUFFER_OFFSET = 1, /* offset:ulong; external data only when > 1 */
    TFL_BUFFER_SIZE = 2    /* size:ulong */
};

/* table Metadata */
enum {
    TFL_METADATA_NAME = 0,  /* name:string */
    TFL_METADATA_BUFFER = 1 /* buffer:uint */
};

/* enum TensorType : byte */
enum {
    TFL_TYPE_FLOAT32 = 0,
    TFL_TYPE_FLOAT16 = 1,
    TFL_TYPE_INT32 = 2,
    TFL_TYPE_UINT8 = 3,
    TFL_TYPE_INT64 = 4,
    TFL_TYPE_STRING = 5,
    TFL_TYPE_BOOL = 6,
    TFL_TYPE_INT16 = 7,
    TFL_TYPE_COMPLEX64 = 8,
    TFL_TYPE_INT8 = 9,
    TFL_TYPE_FLOAT64 = 10,
    TFL_TYPE_COMPLEX128 = 11,
    TFL_TYPE_UINT64 = 12,
    TFL_TYPE_RESOURCE = 13,
    TFL_TYPE_VARIANT = 14,
    TFL_TYPE_UINT32 = 15,
    TFL_TYPE_UINT16 = 16,
    TFL_TYPE_INT4 = 17,
    TFL_TYPE_COUNT
};

/* enum Padding : byte and enum ActivationFunctionType : byte */
enum { TFL_PADDING_SAME = 0, TFL_PADDING_VALID = 1 };
enum {
    TFL_ACT_NONE = 0,
    TFL_ACT_RELU = 1,
    TFL_ACT_RELU_N1_TO_1 = 2,
    TFL_ACT_RELU6 = 3,
    TFL_ACT_TANH = 4,
    TFL_ACT_SIGN_BIT = 5
};

/* enum BuiltinOperator : int32 -- the codes the importer maps to ta_op_kind.
 * The full name table is in opmap.c. */
enum {
    TFL_OP_ADD = 0,
    TFL_OP_AVERAGE_POOL_2D = 1,
    TFL_OP_CONCATENATION = 2,
    TFL_OP_CONV_2D = 3,
    TFL_OP_DEPTHWISE_CONV_2D = 4,
    TFL_OP_DEPTH_TO_SPACE = 5,
    TFL_OP_DEQUANTIZE = 6,
    TFL_OP_EMBEDDING_LOOKUP = 7,
    TFL_OP_FLOOR = 8,
    TFL_OP_FULLY_CONNECTED = 9,
    TFL_OP_L2_NORMALIZATION = 11,
    TFL_OP_LOGISTIC = 14,
    TFL_OP_MAX_POOL_2D = 17,
    TFL_OP_MUL = 18,
    TFL_OP_RELU = 19,
    TFL_OP_RELU_N1_TO_1 = 20,
    TFL_OP_RELU6 = 21,
    TFL_OP_RESHAPE = 22,
    TFL_OP_RESIZE_BILINEAR = 23,
    TFL_OP_SOFTMAX = 25,
    TFL_OP_SPACE_TO_DEPTH = 26,
    TFL_OP_SVDF = 27,
    TFL_OP_TANH = 28,
    TFL_OP_CALL = 31,
    TFL_OP_CUSTOM = 32,
    TFL_OP_PAD = 34,
    TFL_OP_GATHER = 36,
    TFL_OP_BATCH_TO_SPACE_ND = 37,
    TFL_OP_SPACE_TO_BATCH_ND = 38,
    TFL_OP_TRANSPOSE = 39,
    TFL_OP_MEAN = 40,
    TFL_OP_SUB = 41,
    TFL_OP_DIV = 42,
    TFL_OP_SQUEEZE = 43,
    TFL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
    TFL_OP_STRIDED_SLICE = 45,
    TFL_OP_EXP = 47,
    TFL_OP_SPLIT = 49,
    TFL_OP_LOG_SOFTMAX = 50,
    TFL_OP_CAST = 53,
    TFL_OP_PRELU = 54,
    TFL_OP_MAXIMUM = 55,
    TFL_OP_ARG_MAX = 56,
    TFL_OP_MINIMUM = 57,
    TFL_OP_LESS = 58,
    TFL_OP_NEG = 59,
    TFL_OP_PADV2 = 60,
    TFL_OP_GREATER = 61,
    TFL_OP_GREATER_EQUAL = 62,
    TFL_OP_LESS_EQUAL = 63,
    TFL_OP_SLICE = 65,
    TFL_OP_SIN = 66,
    TFL_OP_TRANSPOSE_CONV = 67,
    TFL_OP_EXPAND_DIMS = 70,
    TFL_OP_EQUAL = 71,
    TFL_OP_NOT_EQUAL = 72,
    TFL_OP_LOG = 73,
    TFL_OP_SUM = 74,
    TFL_OP_SQRT = 75,
    TFL_OP_RSQRT = 76,
    TFL_OP_SHAPE = 77,
    TFL_OP_ARG_MIN = 79,
    TFL_OP_REDUCE_PROD = 81,
    TFL_OP_REDUCE_MAX = 82,
    TFL_OP_PACK = 83,
    TFL_OP_LOGICAL_OR = 84,
    TFL_OP_LOGICAL_AND = 86,
    TFL_OP_LOGICAL_NOT = 87,
    TFL_OP_UNPACK = 88,
    TFL_OP_REDUCE_MIN = 89,
    TFL_OP_FLOOR_DIV = 90,
    TFL_OP_SQUARE = 92,
    TFL_OP_ZEROS_LIKE = 93,
    TFL_OP_FILL = 94,
    TFL_OP_FLOOR_MOD = 95,
    TFL_OP_RESIZE_NEAREST_NEIGHBOR = 97,
    TFL_OP_LEAKY_RELU = 98,
    TFL_OP_SQUARED_DIFFERENCE = 99,
    TFL_OP_MIRROR_PAD = 100,
    TFL_OP_ABS = 101,
    TFL_OP_SPLIT_V = 102,
    TFL_OP_CEIL = 104,
    TFL_OP_ADD_N = 106,
    TFL_OP_GATHER_ND = 107,
    TFL_OP_COS = 108,
    TFL_OP_ELU = 111,
    TFL_OP_QUANTIZE = 114,
    TFL_OP_ROUND = 116,
    TFL_OP_HARD_SWISH = 117,
    TFL_OP_IF = 118,
    TFL_OP_WHILE = 119,
    TFL_OP_SELECT_V2 = 123,
    TFL_OP_BATCH_MATMUL = 126,
    TFL_OP_PLACEHOLDER_FOR_GREATER_OP_CODES = 127,
    TFL_OP_CUMSUM = 128,
    TFL_OP_CALL_ONCE = 129,
    TFL_OP_BROADCAST_TO = 130,
    TFL_OP_VAR_HANDLE = 142,
    TFL_OP_READ_VARIABLE = 143,
    TFL_OP_ASSIGN_VARIABLE = 144
};

/* union BuiltinOptions: the type tag values (1-based, NONE = 0, in the
 * union's declaration order).  Only the option tables the importer parses. */
enum {
    TFL_OPT_NONE = 0,
    TFL_OPT_CONV2D = 1,                    /* Conv2DOptions */
    TFL_OPT_DEPTHWISE_CONV2D = 2,          /* DepthwiseConv2DOptions */
    TFL_OPT_POOL2D = 5,                    /* Pool2DOptions */
    TFL_OPT_SVDF = 6,                      /* SVDFOptions */
    TFL_OPT_RNN = 7,                       /* RNNOptions */
    TFL_OPT_FULLY_CONNECTED = 8,           /* FullyConnectedOptions */
    TFL_OPT_SOFTMAX = 9,                   /* SoftmaxOptions */
    TFL_OPT_CONCATENATION = 10,            /* ConcatenationOptions */
    TFL_OPT_ADD = 11,                      /* AddOptions */
    TFL_OPT_L2NORM = 12,                   /* L2NormOptions */
    TFL_OPT_LSTM = 14,                     /* LSTMOptions */
    TFL_OPT_RESIZE_BILINEAR = 15,          /* ResizeBilinearOptions */
    TFL_OPT_CALL = 16,                     /* CallOptions */
    TFL_OPT_RESHAPE = 17,                  /* ReshapeOptions */
    TFL_OPT_MUL = 21,                      /* MulOptions */
    TFL_OPT_GATHER = 23,                   /* GatherOptions */
    TFL_OPT_REDUCER = 27,                  /* ReducerOptions */
    TFL_OPT_SUB = 28,                      /* SubOptions */
    TFL_OPT_DIV = 29,                      /* DivOptions */
    TFL_OPT_SEQUENCE_RNN = 31,             /* SequenceRNNOptions */
    TFL_OPT_STRIDED_SLICE = 32,            /* StridedSliceOptions */
    TFL_OPT_SPLIT = 35,                    /* SplitOptions */
    TFL_OPT_CAST = 37,                     /* CastOptions */
    TFL_OPT_ARG_MAX = 40,                  /* ArgMaxOptions */
    TFL_OPT_TRANSPOSE_CONV = 49,           /* TransposeConvOptions */
    TFL_OPT_SHAPE = 55,                    /* ShapeOptions */
    TFL_OPT_ARG_MIN = 57,                  /* ArgMinOptions */
    TFL_OPT_PACK = 59,                     /* PackOptions */
    TFL_OPT_ONE_HOT = 61,                  /* OneHotOptions */
    TFL_OPT_UNPACK = 64,                   /* UnpackOptions */
    TFL_OPT_BIDIRECTIONAL_SEQUENCE_LSTM = 69, /* BidirectionalSequenceLSTMOptions */
    TFL_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM = 71, /* UnidirectionalSequenceLSTMOptions */
    TFL_OPT_RESIZE_NEAREST_NEIGHBOR = 74,  /* ResizeNearestNeighborOptions */
    TFL_OPT_LEAKY_RELU = 75,               /* LeakyReluOptions */
    TFL_OPT_SPLIT_V = 79,                  /* SplitVOptions */
    TFL_OPT_IF = 92,                       /* IfOptions */
    TFL_OPT_WHILE = 93,                    /* WhileOptions */
    TFL_OPT_BATCH_MATMUL = 101,            /* BatchMatMulOptions */
    TFL_OPT_CALL_ONCE = 103,               /* CallOnceOptions */
    TFL_OPT_SPACE_TO_DEPTH = 19,           /* SpaceToDepthOptions */
    TFL_OPT_MIRROR_PAD = 77,               /* MirrorPadOptions */
    TFL_OPT_DEPTH_TO_SPACE = 94,           /* DepthToSpaceOptions */
    TFL_OPT_CUMSUM = 102,                  /* CumsumOptions */
    TFL_OPT_VAR_HANDLE = 111               /* VarHandleOptions */
};

/*
 * Field slots inside the option tables above, as (table, slot):
 *   Conv2DOptions: padding 0, stride_w 1, stride_h 2, fused_activation_function 3,
 *                  dilation_w_factor 4 (=1), dilation_h_factor 5 (=1)
 *   DepthwiseConv2DOptions: padding 0, stride_w 1, stride_h 2, depth_multiplier 3,
 *                  fused_activation_function 4, dilation_w_factor 5 (=1), dilation_h_factor 6 (=1)
 *   Pool2DOptions: padding 0, stride_w 1, stride_h 2, filter_width 3, filter_height 4,
 *                  fused_activation_function 5
 *   SVDFOptions: rank 0, fused_activation_function 1, asymmetric_quantize_inputs 2
 *   RNNOptions: fused_activation_function 0, asymmetric_quantize_inputs 1
 *   SequenceRNNOptions: time_major 0, fused_activation_function 1, asymmetric_quantize_inputs 2
 *   FullyConnectedOptions: fused_activation_function 0, weights_format 1, keep_num_dims 2,
 *                  asymmetric_quantize_inputs 3
 *   SoftmaxOptions: beta 0 (float, schema default 0.0)
 *   ConcatenationOptions: axis 0, fused_activation_function 1
 *   AddOptions / SubOptions / MulOptions / DivOptions / L2NormOptions:
 *                  fused_activation_function 0
 *   LSTMOptions: fused_activation_function 0, cell_clip 1, proj_clip 2, kernel_type 3,
 *                  asymmetric_quantize_inputs 4
 *   UnidirectionalSequenceLSTMOptions: fused_activation_function 0, cell_clip 1,
 *                  proj_clip 2, time_major 3, asymmetric_quantize_inputs 4
 *   BidirectionalSequenceLSTMOptions: fused_activation_function 0, cell_clip 1,
 *                  proj_clip 2, merge_outputs 3, time_major 4 (=true),
 *                  asymmetric_quantize_inputs 5
 *   ResizeBilinearOptions: new_height 0 (deprecated), new_width 1 (deprecated),
 *                  align_corners 2, half_pixel_centers 3
 *   ResizeNearestNeighborOptions: align_corners 0, half_pixel_centers 1
 *   CallOptions: subgraph 0 (uint)
 *   ReshapeOptions: new_shape 0 ([int])
 *   GatherOptions: axis 0, batch_dims 1
 *   ReducerOptions: keep_dims 0
 *   StridedSliceOptions: begin_mask 0, end_mask 1, ellipsis_mask 2, new_axis_mask 3,
 *                  shrink_axis_mask 4, offset 5
 *   SplitOptions / SplitVOptions: num_splits 0
 *   CastOptions: in_data_type 0, out_data_type 1
 *   ArgMaxOptions / ArgMinOptions: output_type 0
 *   ShapeOptions: out_type 0
 *   TransposeConvOptions: padding 0, stride_w 1, stride_h 2, fused_activation_function 3
 *   PackOptions: values_count 0, axis 1
 *   UnpackOptions: num 0, axis 1
 *   OneHotOptions: axis 0
 *   LeakyReluOptions: alpha 0 (float)
 *   IfOptions: then_subgraph_index 0, else_subgraph_index 1
 *   WhileOptions: cond_subgraph_index 0, body_subgraph_index 1
 *   CallOnceOptions: init_subgraph_index 0
 *   BatchMatMulOptions: adj_x 0, adj_y 1, asymmetric_quantize_inputs 2
 *   VarHandleOptions: container 0 (string), shared_name 1 (string)
 */

/* Name of a BuiltinOperator code ("CONV_2D"), or NULL when the code is not
 * in the schema the reader knows. */
const char *ta__tfl_builtin_name(int32_t code);

#endif
