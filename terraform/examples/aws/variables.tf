variable "region" {
  description = "AWS region (Bedrock endpoint, ECS, RDS)."
  type        = string
  default     = "eu-central-1"
}

variable "vpc_id" {
  description = "Existing VPC with VPN / Direct Connect routes to the on-prem GPU node."
  type        = string
}

variable "private_subnet_ids" {
  description = "Private subnets (two or more AZs) for tasks and the database."
  type        = list(string)
}

variable "alb_subnet_ids" {
  description = "Subnets for the ALB (private for the default internal ALB)."
  type        = list(string)
}

variable "alb_ingress_cidrs" {
  description = "Client CIDR blocks allowed to call the gateway on 443."
  type        = list(string)
}

variable "certificate_arn" {
  description = "ACM certificate ARN for domain_name."
  type        = string
}

variable "domain_name" {
  description = "Host name of the gateway, e.g. gecit.example.com.tr."
  type        = string
}

variable "route53_zone_id" {
  description = "Hosted zone for domain_name; null if DNS is managed elsewhere."
  type        = string
  default     = null
}

variable "image" {
  description = "Gateway image URI in ECR."
  type        = string
}

variable "ecr_repository_arn" {
  description = "ECR repository ARN of image (limits image pull to it)."
  type        = string
}

variable "bedrock_model_arns" {
  description = "Bedrock model / inference-profile ARNs the gateway may invoke."
  type        = list(string)
}

variable "onprem_cidrs" {
  description = "CIDR blocks of the on-prem inference node(s)."
  type        = list(string)
  default     = []
}
